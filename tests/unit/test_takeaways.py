"""No takeaway contradicts its problem: a takeaway that compares or counts is computed from the problem's values.

Every template is rendered at fixed seeds (1-2 in ``make test``, 1-15 in the deep lane) and each step's takeaway is
read two ways:

* every number it states that is the problem's own (not the formula's general lesson, not wording the template
  repeats at every seed) is backed by the problem: a given, an input, an answer or a worked part, their ratio,
  their difference, or a small multiple (16 B per parameter, 2 B per bf16 value), to the figures it shows;
* each comparing claim (a loss "against" another, a batch "above / within / below" a range, a fall "N×, not M×",
  memory "on n GPUs becomes … on m") holds for the numbers it names.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import pytest

from engine import formulas
from question_bank import registry
from tests import problems

SEEDS = range(1, 16) if problems.lane == "deep" else range(1, 3)
TEMPLATES = [t.id for t in registry.all_templates()]

# a number as a takeaway writes it, with the unit that scales it
NUMBER = re.compile(r"(?<![\w.^⁰¹²³⁴⁵⁶⁷⁸⁹])(\d[\d,]*(?:\.\d+)?)(?: × 10([⁰¹²³⁴⁵⁶⁷⁸⁹]+))?\s?"
                    r"(×|%|GB|TB|MB|kB|ms|µs|ns|min|nats|M|B|T|h|s)?(?![\w^])")
SCALE = {"GB": 1e9, "TB": 1e12, "MB": 1e6, "kB": 1e3, "ms": 1e-3, "µs": 1e-6, "ns": 1e-9, "min": 60, "h": 3600,
         "M": 1e6, "B": 1e9, "T": 1e12, "%": 0.01}
SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
MULTIPLES = (2, 16)  # bytes per bf16 value, bytes per parameter of a trained model


def _value(text: str, power: str) -> float:
    return float(text.replace(",", "")) * (10.0 ** int(power.translate(SUPERSCRIPT)) if power else 1.0)


def _numbers_of(p) -> list[float]:
    """The problem's own numbers: what its text states, its givens, each step's inputs, answer and worked parts."""
    stated = " ".join([p.scenario("en"), p.conventions("en")] + [s.prompt("en") for s in p.steps])
    out = [_value(text, power) * SCALE.get(unit, 1.0) for text, power, unit in NUMBER.findall(stated)]
    out += [float(g.value) for g in p.givens if isinstance(g.value, (int, float))]
    for s in p.steps:
        out += [float(v) for v in s.inputs.values() if isinstance(v, (int, float))]
        if isinstance(s.expected.value, (int, float)):
            out.append(float(s.expected.value))
        if s.formula:
            f = formulas.get(s.formula)
            try:
                out += [float(v) for v in f.part_values(f.with_defaults(s.inputs)).values()]
            except Exception:  # a step whose inputs refer to another step: its answer is in ``out`` already
                pass
    return [v for v in out if v and math.isfinite(v)]


def _shown_tolerance(text: str) -> float:
    """Half a unit of the last figure shown, relative (``1.8`` ± 0.05), and a little for the rounding inside."""
    digits = text.replace(",", "")
    last = 10.0 ** -len(digits.split(".")[1]) if "." in digits else 1.0
    return 0.5 * last / max(float(digits), 1e-300) + 2e-3


def _backed(x: float, unit: str, tol: float, values: list[float]) -> bool:
    def near(a: float, b: float) -> bool:
        return abs(a - b) <= tol * abs(b)

    target = x * SCALE.get(unit, 1.0)
    scaled = values + [k * v for k in MULTIPLES for v in values]
    if unit != "×" and any(near(target, v) for v in scaled):
        return True
    pairs = [(a, b) for a in scaled for b in values if a != b]
    if unit not in ("×", "%") and any(near(target, abs(a - b)) or near(target, a * b) for a, b in pairs):
        return True
    return any(near(target, a / b) for a, b in pairs)


def _constant_numbers(tid: str) -> set[str]:
    """Figures every sampled seed's takeaways repeat: the template's wording (4-16M), not the problem's values."""
    seen = [set(NUMBER.findall(" ".join(s.takeaway for s in problems.problem(tid, seed).steps))) for seed in SEEDS]
    return {n for n, _, _ in set.intersection(*seen)} if len(seen) > 1 else set()


def _claims(tid: str, p) -> Iterator[tuple[int, str, float, str]]:
    """(step, the number as written, its value, its unit) of every problem-specific number in a takeaway."""
    constant = _constant_numbers(tid)
    for s in p.steps:
        if not s.takeaway:
            continue
        lesson = formulas.get(s.formula).takeaway if s.formula else ""
        if s.takeaway.strip().rstrip(".") == lesson.strip().rstrip("."):
            continue  # the formula's general lesson, the same in every problem
        for text, power, unit in NUMBER.findall(s.takeaway):
            if text in constant or text in lesson:
                continue
            yield s.index, text, _value(text, power), unit


@pytest.mark.parametrize("tid", TEMPLATES)
def test_every_figure_a_takeaway_states_is_the_problem_s_own(tid):
    unbacked = []
    for seed in SEEDS:
        p = problems.problem(tid, seed)
        values = _numbers_of(p)
        for step, text, x, unit in _claims(tid, p):
            if not _backed(x, unit, _shown_tolerance(text), values):
                unbacked.append(f"seed {seed} step {step + 1}: {text}{unit} in {p.steps[step].takeaway!r}")
    assert not unbacked, f"{tid}: takeaway figures the problem does not compute:\n  " + "\n  ".join(unbacked[:6])


# --------------------------------------------------------------------------- #
# The comparing claims, each checked against the numbers it names


def _loss_against(m: re.Match) -> bool:  # "would reach 1.950 nats against 1.954": the optimum is not worse
    return float(m[1]) <= float(m[2])


def _batch_against_range(m: re.Match) -> bool:  # "at least 10.1M tokens per step, within the 4-16M tokens"
    x, lo, hi = float(m[1].replace(",", "")), float(m[3]), float(m[4])
    return {"above": x > hi, "within": lo <= x <= hi, "below": x < lo}[m[2]]


def _fall_not_share(m: re.Match) -> bool:  # "TTFT falls 78×, not the 100× of the tokens"
    return float(m[1]) < float(m[2])


def _gpus_become(m: re.Match) -> bool:  # "1386 GB on 18 GPUs becomes 1258 GB on 16": fewer bytes, no more GPUs
    return float(m[1].replace(",", "")) >= float(m[3].replace(",", "")) and int(m[2]) >= int(m[4])


COMPARISONS = (
    (re.compile(r"would reach (\d+\.\d+) nats against (\d+\.\d+)"), _loss_against),
    (re.compile(r"at least ([\d,.]+)M tokens per step, (above|within|below) the (\d+)-(\d+)M"), _batch_against_range),
    (re.compile(r"falls ([\d.]+)×, not the ([\d.]+)×"), _fall_not_share),
    (re.compile(r"([\d,]+) GB on (\d+) GPUs becomes ([\d,]+) GB on (\d+)"), _gpus_become),
)


@pytest.mark.parametrize("tid", TEMPLATES)
def test_every_comparison_a_takeaway_makes_holds(tid):
    wrong = []
    for seed in SEEDS:
        for s in problems.problem(tid, seed).steps:
            for pattern, holds in COMPARISONS:
                wrong += [f"seed {seed} step {s.index + 1}: {m[0]!r}" for m in pattern.finditer(s.takeaway)
                          if not holds(m)]
    assert not wrong, f"{tid}: takeaways that contradict their own numbers:\n  " + "\n  ".join(wrong[:6])


def test_the_comparisons_are_read_where_the_bank_makes_them():
    """Each comparing claim's pattern matches a takeaway the bank writes (so a reworded one is not silently skipped)."""
    texts = " ".join(s.takeaway for tid in ("mfu.overtraining_chain", "parallelism.dp_min_batch",
                                            "serving.prefix_cache_chain", "memory.rl_memory_chain")
                     for seed in (1, 2) for s in problems.problem(tid, seed).steps)
    assert all(pattern.search(texts) for pattern, _ in COMPARISONS)
