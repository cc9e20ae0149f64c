"""Simulated learners with known recall, for the learning loop's benchmark (bench_learning) and its tests.

* :class:`ModelForm`: the readiness model's own form, ``sigmoid(0.2 - difficulty + 1.1 log(1 + practice)
  - 0.45 log(1 + days away))``: a fit of that form can match it exactly, so it flatters the readiness.
* :class:`AllRight`: every answer right (the final stretch's load with no misses coming back).
* :class:`PowerLaw`: forgetting of another form.  Each template has a skill, ``sigmoid(ability of its topic -
  difficulty + 0.9 log(1 + passes))``, and a memory whose recall after ``t`` days is ``(1 + t / (9 S))^-1``
  (a power law: FSRS's curve, not the logistic in ``log(1 + days)`` the readiness fits); a pass multiplies
  the stability ``S`` by the learner's growth (more when recall had fallen), a miss cuts it to 40 %.  The
  chance of a right answer is skill x recall.  The topics' abilities differ (``spread``), so one topic can
  be far weaker than the others: the case a readiness pulled towards the overall figure hides.

Every learner is deterministic for its seed and answers through ``answer(item, day)``; ``p(item, day)`` is its
true chance of answering a fresh problem right on ``day`` without answering it.
"""

from __future__ import annotations

import math
import random
from datetime import date

from question_bank import drills


def _difficulties(catalog, rnd: random.Random) -> dict[str, float]:
    diff = {i: rnd.gauss(0, 0.6) for i, _ in catalog}
    for chain, steps in drills.CHAIN_STEPS.items():  # a chain is its hardest step, plus a little
        if chain in diff:
            named = [diff[s] for s in steps if s is not None and s in diff]
            diff[chain] = max(named, default=diff[chain]) + 0.3
    return diff


class ModelForm:
    """Known recall of the readiness model's own form: right with a probability that grows with practice
    and fades with time (logistic in ``log(1 + days away)``)."""

    name = "model-form"

    def __init__(self, catalog, seed: int = 11):
        rnd = random.Random(seed)
        self.rnd = random.Random(seed + 1)
        self.diff = _difficulties(catalog, rnd)
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


class PowerLaw:
    """Power-law forgetting and topic abilities that differ (see the module docstring)."""

    def __init__(self, catalog, seed: int = 11, name: str = "average", level: float = 0.3, growth: float = 2.2,
                 spread: float = 0.5):
        rnd = random.Random(seed)
        self.name = name
        self.rnd = random.Random(seed + 1)
        self.diff = _difficulties(catalog, rnd)
        self.topic = dict(catalog)
        self.ability = {t: level + rnd.gauss(0, spread) for t in sorted(set(self.topic.values()))}
        self.growth = growth
        self.passes: dict[str, int] = {}
        self.stability: dict[str, float] = {}
        self.last: dict[str, date] = {}

    def recall(self, item: str, day: date) -> float:
        if item not in self.last:
            return 1.0
        return 1 / (1 + (day - self.last[item]).days / (9 * self.stability[item]))

    def p(self, item: str, day: date) -> float:
        z = self.ability[self.topic[item]] - self.diff[item] + 0.9 * math.log1p(self.passes.get(item, 0))
        return self.recall(item, day) / (1 + math.exp(-z))

    def answer(self, item: str, day: date) -> bool:
        r = self.recall(item, day)
        right = self.rnd.random() < self.p(item, day)
        if (self.last.get(item) or day) < day or item not in self.stability:  # a day's first answer moves memory
            s = self.stability.get(item, 0.6)
            self.stability[item] = s * self.growth * (2 - r) if right else max(0.3, 0.4 * s)
        elif right:  # a re-drill the same day: held a little longer
            self.stability[item] *= 1.1
        self.passes[item] = self.passes.get(item, 0) + (1 if right else 0)
        self.last[item] = day
        return right


class AllRight:
    """A learner who answers every problem right: the most reviews passed, the fewest that come back."""

    name = "all-right"

    def __init__(self, catalog=(), seed: int = 11):
        self.rnd = random.Random(seed + 1)

    def p(self, item: str, day: date) -> float:
        return 1.0

    def answer(self, item: str, day: date) -> bool:
        return True


def power_learners(catalog, seed: int = 11) -> list[PowerLaw]:
    """Three learners of power-law forgetting: fast, average and weak (lower ability, slower memory, topic
    abilities further apart)."""
    return [PowerLaw(catalog, seed, "fast", 1.0, 3.0, 0.4), PowerLaw(catalog, seed + 100, "average", 0.3, 2.2, 0.5),
            PowerLaw(catalog, seed + 200, "weak", -0.4, 1.6, 0.8)]
