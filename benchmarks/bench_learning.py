"""The learning loop on a simulated learner with known recall, for SM-2 and FSRS.

The learner: each template has a hidden difficulty; the chance of answering a fresh problem of it right is
``sigmoid(0.2 - difficulty + 1.1 log(1 + practice) - 0.45 log(1 + days since practised))``, so it grows with
practice and fades with time, and a chain is as hard as its hardest step plus a little.  It starts on
2027-05-03 with an interview N days later, accepts the pace the plan proposes on day 1, does every session
(a wrong answer is quality 1, a right one 4; a re-drill is given until it passes, at most 3 times).

Reported for each scheduler and interview distance:

* reviews per day (mean, the peak and its day), the load of the final 14 days (peak / mean), the reviews due
  on the interview day (forced: 0, as the session asks nothing that day) and the share of neighbouring
  reviews that share a topic;
* the learner's true mean recall on the interview day (each template's probability), against the readiness
  predicted 7 days before (the per-topic logistic of engine.schedule.readiness, and FSRS retrievability),
  both scored on a mock on the interview day (every template once): Brier score and log loss;
* calibration of the logistic on the simulated answers (predictions made >= 7 days before the answers).
"""

from __future__ import annotations

import math
import random
import time
from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time

from engine import session as se
from engine.schedule import chains, fsrs_bridge, pace, readiness
from engine.sm2 import ItemState
from question_bank import drills, registry

START = date(2027, 5, 3)


class Learner:
    """Known recall: right with a probability that grows with practice and fades with time."""

    def __init__(self, catalog, seed: int = 11):
        rnd = random.Random(seed)
        self.rnd = random.Random(seed + 1)
        self.diff = {i: rnd.gauss(0, 0.6) for i, _ in catalog}
        for chain, steps in drills.CHAIN_STEPS.items():  # a chain is its hardest step, plus a little
            named = [self.diff[s] for s in steps if s is not None]
            self.diff[chain] = max(named, default=self.diff[chain]) + 0.3
        self.count: dict[str, int] = {}
        self.last: dict[str, date] = {}

    def p(self, item: str, day: date) -> float:
        n = self.count.get(item, 0)
        gap = (day - self.last[item]).days if item in self.last else 0
        z = 0.2 - self.diff[item] + 1.1 * math.log1p(n) - 0.45 * math.log1p(gap)
        return 1 / (1 + math.exp(-z))

    def answer(self, item: str, day: date) -> bool:
        right = self.rnd.random() < self.p(item, day)
        self.count[item] = self.count.get(item, 0) + 1
        self.last[item] = day
        return right


def simulate(days: int, scheduler: str, seed: int = 11) -> dict:
    templates = registry.all_templates()
    catalog = [(t.id, t.topic) for t in templates]
    is_chain = {t.id: t.is_chain for t in templates}.__getitem__
    topic = dict(catalog)
    interview = START + timedelta(days=days)
    learner = Learner(catalog, seed)
    states: dict[str, ItemState] = {}
    memories: dict = {}
    answers: list[readiness.Answer] = []
    loads: dict[date, int] = {}
    neighbours = same = 0
    new_per_day = pace.pace(len(catalog), days).per_day  # the pace, accepted on day 1
    predicted = None
    for k in range(days + 1):
        today = START + timedelta(days=k)
        passed = chains.passed_once(states, {})
        ready = lambda c, passed=passed: chains.chain_ready(drills.prerequisites(c), passed)  # noqa: E731
        if today == interview - timedelta(days=readiness.HORIZON):
            outlook = readiness.Outlook(states, new_per_day, interview, 200, scheduler, memories.get, is_chain, ready)
            predicted = _predictions(answers, catalog, outlook, interview, today)
        s = se.Session(states, catalog, today, seed=k, new_per_day=new_per_day, interview=interview,
                       is_chain=is_chain, chain_ready=ready, reviews_per_day=200, scheduler=scheduler,
                       memory=memories.get)
        due = [c for c in s.cards if c.kind == "due"]
        loads[today] = len(due)
        neighbours += max(0, len(due) - 1)
        same += sum(1 for a, b in zip(due, due[1:]) if a.topic == b.topic)  # neighbours sharing a topic
        when = datetime.combine(today, day_time(9), UTC)
        redrills: dict[str, int] = {}
        while not s.done:
            card = s.current
            if card.kind == "redrill":
                redrills[card.item] = redrills.get(card.item, 0) + 1
            right = learner.answer(card.item, today) or redrills.get(card.item, 0) >= 3
            s.answer(4 if right else 1, "correct" if right else "wrong", when=when)
            answers.append(readiness.Answer(today, card.item, topic[card.item], right))
        states = s.states
        memories.update(s._memories)
    recall = {i: learner.p(i, interview) for i, _ in catalog}
    mock = {i: learner.rnd.random() < recall[i] for i, _ in catalog}  # a mock on the day: every template once
    final14 = [loads[interview - timedelta(days=j)] for j in range(1, 15) if interview - timedelta(days=j) >= START]
    peak_day = max((d for d in loads if d < interview), key=lambda d: loads[d])
    out = {
        "scheduler": scheduler, "days": days, "reviews": sum(loads.values()),
        "per_day": sum(loads.values()) / days, "peak": loads[peak_day], "peak_day": (interview - peak_day).days,
        "final14_ratio": max(final14) / (sum(final14) / len(final14)),
        "due_on_day": sum(1 for st in states.values() if st.due is not None and st.due <= interview),
        "forced_on_day": loads[interview], "learnt": len(states),
        "same_topic": same / neighbours if neighbours else 0.0,
        "recall": sum(recall.values()) / len(recall), "mock": sum(mock.values()) / len(mock),
        "calibration": readiness.calibration(answers, catalog, scheduler=scheduler, interview=interview),
        "topics": {},
    }
    ready = (predicted or {}).pop("readiness", None)
    for name, preds in (predicted or {}).items():
        ps = [min(1 - 1e-6, max(1e-6, preds[i])) for i, _ in catalog]
        ys = [1 if mock[i] else 0 for i, _ in catalog]
        out[name] = (sum(ps) / len(ps), sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ps),
                     -sum(y * math.log(p) + (1 - y) * math.log(1 - p) for p, y in zip(ps, ys)) / len(ps),
                     sum((p - recall[i]) ** 2 for p, (i, _) in zip(ps, catalog)) / len(ps))
    if ready is not None:  # each topic with a figure: predicted 7 days before vs the learner's true recall
        for t, r in ready.topics.items():
            if r.probability is not None:
                ids = [i for i, tt in catalog if tt == t]
                out["topics"][t] = (r.probability, sum(recall[i] for i in ids) / len(ids), r.reviews)
    return out


def _predictions(answers, catalog, outlook, interview, today) -> dict:
    """Each template's predicted chance of a right answer on the interview day, made on ``today``: the
    readiness (the logistic after the plan's days, projected) and FSRS retrievability on the day after the
    same projected days (each item's first answer of a day replayed through FSRS)."""
    r = readiness.readiness(answers, catalog, interview, today, outlook)
    if r.overall is None:
        return {}
    models = readiness.fit_models(answers)
    index = readiness._Index(answers)
    fsrs = dict.fromkeys(r.items, 0.0)
    for run in range(readiness.RUNS):
        after = readiness.project(models, index, catalog, outlook, today, interview, random.Random(run))
        for item in fsrs:
            history, last = [], None
            for d, ok in zip(after.days.get(item, ()), after.passed.get(item, ())):
                if d != last:
                    history.append((date.fromordinal(d), 4 if ok else 1))
                    last = d
            fsrs[item] += fsrs_bridge.retrievability(fsrs_bridge.replay(history), interview) / readiness.RUNS
    return {"logistic": r.items, "fsrs_r": fsrs, "readiness": r}


def main() -> None:
    for days in (9, 21, 40):
        for scheduler in ("sm2", "fsrs"):
            t = time.perf_counter()
            m = simulate(days, scheduler)
            c = m["calibration"]
            print(f"learning: {scheduler:4} interview in {days:2} days: {m['reviews']} reviews, {m['per_day']:.1f} a day, "
                  f"peak {m['peak']} ({m['peak_day']} days before), final 14 days peak/mean {m['final14_ratio']:.2f}, "
                  f"due on the day {m['due_on_day']}/{m['learnt']} (forced {m['forced_on_day']}), "
                  f"neighbours sharing a topic {100 * m['same_topic']:.0f}%")
            print(f"learning: {scheduler:4} interview-day recall {100 * m['recall']:.1f}% (mock {100 * m['mock']:.1f}%); "
                  + "; ".join(f"{name} predicted 7 days before {100 * v[0]:.1f}% (Brier {v[1]:.3f} on the mock, "
                              f"{v[3]:.4f} on the true recall; log loss {v[2]:.3f})"
                              for name, v in m.items() if name in ("logistic", "fsrs_r")))
            if m["topics"]:
                print(f"learning: {scheduler:4} readiness by topic 7 days before vs true recall on the day: "
                      + ", ".join(f"{t} {100 * p:.0f}/{100 * o:.0f}%" for t, (p, o, _) in m["topics"].items()))
            if c.answers:
                print(f"learning: {scheduler:4} calibration (>= 7 days ahead): {c.answers} answers, predicted "
                      f"{100 * c.predicted:.1f}% vs {100 * c.observed:.1f}% right, Brier {c.brier:.3f}  "
                      f"[{time.perf_counter() - t:.1f} s]")
                print(f"learning: {scheduler:4}   reliability (predicted: right, answers): "
                      + ", ".join(f"{100 * p:.0f}%: {100 * o:.0f}% ({n})" for p, o, n in c.bins))
                big = {t: v for t, v in c.topics.items() if v[2] >= 50}
                if big:
                    print(f"learning: {scheduler:4}   topics with 50+ answers (predicted/right): "
                          + ", ".join(f"{t} {100 * p:.0f}/{100 * o:.0f}% ({n})" for t, (p, o, n) in big.items()))


if __name__ == "__main__":
    main()
