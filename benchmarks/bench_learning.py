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

import contextlib
import math
import random
import time
from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time

from benchmarks import learners
from engine import session as se
from engine.review_mode import ReviewMode
from engine.schedule import calibration, chains, features, fsrs_bridge, pace, readiness, stretch
from engine.sm2 import ItemState
from question_bank import drills, registry

START = date(2027, 5, 3)


def final_pass(rule: stretch.FinalPass | None):
    """The final pass's rule in force while simulating (None: the chosen one, stretch.FINAL_PASS)."""
    @contextlib.contextmanager
    def using():
        old = stretch.FINAL_PASS
        stretch.FINAL_PASS = rule or old
        try:
            yield
        finally:
            stretch.FINAL_PASS = old
    return using()


def simulate(days: int, scheduler: str, seed: int = 11, learner=None, paper: bool = False,
             predict: bool = True, rule: stretch.FinalPass | None = None) -> dict:
    """The learner (default :class:`benchmarks.learners.ModelForm`) does every session up to an interview
    ``days`` out: in the app (:class:`engine.session.Session`, a miss re-drilled until it passes, at most 3
    times) or on paper (``paper``: each card of ``drill due`` answered once and recorded as ``drill check
    --record`` does, :func:`engine.session.record` off the schedule).  ``predict``: the readiness a week
    before and on the day, and the calibration; ``rule``: the final pass's rule."""
    with final_pass(rule):
        return _simulate(days, scheduler, seed, learner, paper, predict)


def _simulate(days, scheduler, seed, learner, paper, predict) -> dict:
    templates = registry.all_templates()
    catalog = [(t.id, t.topic) for t in templates]
    is_chain = {t.id: t.is_chain for t in templates}.__getitem__
    topic = dict(catalog)
    interview = START + timedelta(days=days)
    learner = learner or learners.ModelForm(catalog, seed)
    states: dict[str, ItemState] = {}
    memories: dict = {}
    answers: list[readiness.Answer] = []
    loads: dict[date, int] = {}
    neighbours = same = 0
    new_per_day = pace.pace(len(catalog), days).per_day  # the pace, accepted on day 1
    rules = se.Rules(scheduler, interview, 200, new_per_day)
    predicted = None
    for k in range(days + 1):
        today = START + timedelta(days=k)
        passed = chains.passed_once(states, {})
        ready = lambda c, passed=passed: chains.chain_ready(drills.prerequisites(c), passed)  # noqa: E731
        if predict and today == interview - timedelta(days=readiness.HORIZON):
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
        if paper:
            states = _on_paper(s, rules, catalog, memories, learner, today, when, answers)
            continue
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
    final14 = [loads[interview - timedelta(days=j)] for j in range(14, 0, -1) if interview - timedelta(days=j) >= START]
    while final14 and final14[0] == 0:  # a plan that starts inside the stretch has nothing to review on day 1
        final14.pop(0)
    peak_day = max((d for d in loads if d < interview), key=lambda d: loads[d])
    out = {
        "scheduler": scheduler, "days": days, "reviews": sum(loads.values()),
        "per_day": sum(loads.values()) / days, "peak": loads[peak_day], "peak_day": (interview - peak_day).days,
        "final14_ratio": max(final14) / max(1e-9, sum(final14) / len(final14)), "final14": final14,
        "due_on_day": sum(1 for st in states.values() if st.due is not None and st.due <= interview),
        "forced_on_day": loads[interview], "learnt": len(states),
        "same_topic": same / neighbours if neighbours else 0.0,
        "recall": sum(recall.values()) / len(recall), "mock": sum(mock.values()) / len(mock),
        "topics": {}, "on_the_day": None, "week_ahead": None,
    }
    if not predict:
        return out
    out["calibration"] = calibration.calibration(answers, catalog, scheduler=scheduler, interview=interview)
    ready = (predicted or {}).pop("readiness", None)
    for name, preds in (predicted or {}).items():
        ps = [min(1 - 1e-6, max(1e-6, preds[i])) for i, _ in catalog]
        ys = [1 if mock[i] else 0 for i, _ in catalog]
        out[name] = (sum(ps) / len(ps), sum((p - y) ** 2 for p, y in zip(ps, ys)) / len(ps),
                     -sum(y * math.log(p) + (1 - y) * math.log(1 - p) for p, y in zip(ps, ys)) / len(ps),
                     sum((p - recall[i]) ** 2 for p, (i, _) in zip(ps, catalog)) / len(ps))
    if ready is not None:  # each topic with a figure: predicted 7 days before vs the learner's true recall
        out["week_ahead"] = scored(ready, recall, catalog)
        out["topics"] = {t: (p, o, n) for t, (p, o, n, _, _) in out["week_ahead"]["topics"].items()}
    out["on_the_day"] = scored(readiness.readiness(answers, catalog, interview, interview), recall, catalog)
    return out


def _on_paper(s: se.Session, rules: se.Rules, catalog, memories: dict, learner, today: date, when: datetime,
              answers: list) -> dict:
    """The day's cards of ``drill due`` answered once each on paper and recorded as ``drill check --record``
    does (off the schedule, through engine.session.record); returns the states after."""
    states, met = dict(s.states), 0
    for card in list(s.cards):
        book = se.Book(states, rules, catalog, memories.get, met)
        right = learner.answer(card.item, today)
        q = 4 if right else 1
        row = se.record(book, se.Drawn(card.item, card.topic, card.seed), quality=q,
                        verdict="correct" if right else "wrong", when=when, today=today, mode=ReviewMode.PAPER,
                        moves=se.Moves.OFF_SCHEDULE)
        answers.append(readiness.Answer(today, card.item, card.topic, right))
        if row.scheduled:
            assert row.after is not None
            if row.before is None:
                met += 1
            if rules.scheduler == fsrs_bridge.Scheduler.FSRS:
                memories[card.item] = fsrs_bridge.step(memories.get(card.item), q, today, rules.tuning)
            states[card.item] = ItemState.from_dict(row.after)
    return states


def scored(ready: readiness.Readiness, recall: dict[str, float], catalog) -> dict | None:
    """A readiness against the learner's true recall: overall (predicted, true) and each topic's (predicted,
    true, answers, low, high); None when it has no figure."""
    if ready.overall is None:
        return None
    topics = {}
    for t, r in ready.topics.items():
        if r.probability is not None:
            ids = [i for i, tt in catalog if tt == t]
            topics[t] = (r.probability, sum(recall[i] for i in ids) / len(ids), r.reviews, r.low, r.high)
    return {"overall": (ready.overall, sum(recall.values()) / len(recall), ready.low, ready.high),
            "topics": topics}


def _predictions(answers, catalog, outlook, interview, today) -> dict:
    """Each template's predicted chance of a right answer on the interview day, made on ``today``: the
    readiness (the logistic after the plan's days, projected) and FSRS retrievability on the day after the
    same projected days (each item's first answer of a day replayed through FSRS)."""
    r = readiness.readiness(answers, catalog, interview, today, outlook)
    if r.overall is None:
        return {}
    models = readiness.fit_models(answers)
    index = features.Index(answers)
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


FINAL_LIMIT = 1.5  # the hard limit: reviews due a day over the last 14 days, peak / mean
RECALL_TIE = 0.0005  # rules whose recall on the day differ by less than this are taken as equal
# interviews the limit is held on, 7 to 40 days out: a plan shorter than the stretch is ramp-limited (new items
# are met through most of it, so the load climbs from its first day), and the limit is held there too
LIMIT_DISTANCES = (7, 8, 9, 10, 11, 12, 13, 14, 16, 21, 30, 40)
CANDIDATES = [stretch.FinalPass(14, None), stretch.FinalPass(14, 1.4), stretch.FinalPass(14, 1.1, 3.0),
              stretch.FinalPass(14, 1.2, 3.0), stretch.FinalPass(14, 1.1, 4.0), stretch.FinalPass(14, 1.1, 3.0, True),
              stretch.FinalPass(14, 1.2, 3.0, True), stretch.FinalPass(14, 1.1, 4.0, True)]


def limit_learners(catalog) -> list:
    """The learners the limit is held for: the model's form, power-law average, and every answer right."""
    return [learners.ModelForm(catalog, 11), learners.PowerLaw(catalog, 111, "average", 0.3, 2.2, 0.5),
            learners.AllRight(catalog)]


def compare_final_passes(candidates=CANDIDATES, distances=LIMIT_DISTANCES) -> list[tuple]:
    """Each candidate rule of the final pass on every path (the app's session and paper), scheduler, interview
    distance and learner (:func:`limit_learners`): ``(rule, worst final-14 peak / mean, where, mean recall on
    the day of the learners who miss)``."""
    catalog = [(t.id, t.topic) for t in registry.all_templates()]
    out = []
    for rule in candidates:
        worst, recalls = (0.0, None), []
        for days in distances:
            for scheduler in ("sm2", "fsrs"):
                for paper in (False, True):
                    for learner in limit_learners(catalog):
                        m = simulate(days, scheduler, learner=learner, paper=paper, predict=False, rule=rule)
                        if m["final14_ratio"] > worst[0]:
                            worst = (m["final14_ratio"], (days, scheduler, "paper" if paper else "app", learner.name))
                        if not isinstance(learner, learners.AllRight):
                            recalls.append(m["recall"])
        out.append((rule, worst[0], worst[1], sum(recalls) / len(recalls)))
    return out


def readiness_targets(distances=(21, 40)) -> None:
    """The readiness against the true recall on the day of learners whose forgetting is not the model's form,
    a week ahead and on the day: targets overall within 5 points, 80 % of topics within 7."""
    catalog = [(t.id, t.topic) for t in registry.all_templates()]
    for days in distances:
        for scheduler in ("sm2", "fsrs"):
            for learner in [learners.ModelForm(catalog, 11), *learners.power_learners(catalog)]:
                m = simulate(days, scheduler, learner=learner)
                said = []
                for when in ("week_ahead", "on_the_day"):
                    r = m[when]
                    if r is None:
                        said.append(f"{when}: no figure")
                        continue
                    p, o, lo, hi = r["overall"]
                    near = sum(abs(tp - to) <= 0.07 for tp, to, *_ in r["topics"].values())
                    inside = sum(tl <= to <= th for _, to, _, tl, th in r["topics"].values())
                    n = len(r["topics"])
                    ok = abs(p - o) <= 0.05 and near >= 0.8 * n
                    said.append(f"{when} {100 * p:.1f}% [{100 * lo:.0f}-{100 * hi:.0f}] vs {100 * o:.1f}%, "
                                f"topics within 7 points {near}/{n}, true inside the interval {inside}/{n} "
                                f"{'meets' if ok else 'MISSES'} the targets")
                print(f"readiness: {scheduler:4} {days} days, {learner.name:10}: " + "; ".join(said), flush=True)


def main() -> None:
    readiness_targets()
    chosen = None
    for rule, worst, where, recall in compare_final_passes():
        meets = worst <= FINAL_LIMIT
        # the best recall; within RECALL_TIE of it (one seed each: noise), the wider margin under the limit
        if meets and (chosen is None or recall > chosen[2] + RECALL_TIE
                      or (recall > chosen[2] - RECALL_TIE and worst < chosen[1])):
            chosen = (rule, worst, recall)
        print(f"final pass: last {rule.days:2} days, level {rule.level or '-':>4}, reserve {rule.reserve:4}, "
              f"spread {'yes' if rule.spread else 'no ':3}: worst "
              f"final-14 peak/mean {worst:.2f} ({'meets' if meets else 'over'} {FINAL_LIMIT}x; {where}), recall on "
              f"the day {100 * recall:.2f}%", flush=True)
    if chosen is not None:
        print(f"final pass: best recall within the limit: {chosen[0]} (in force: {stretch.FINAL_PASS})")
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
