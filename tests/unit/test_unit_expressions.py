"""Answers written as expressions of quantities with units.

The property: for every numeric step of every template and many seeds, the expected
value written on the whiteboard as the formula with the step's inputs *and their
units* substituted (``(989 TFLOP/s) / (3.35 TB/s)``) is read and graded correct, and
the same text with one unit swapped for a unit of another dimension is refused
(invalid, never graded).  Then the examples of the issue, pinned in both languages.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import expr as ex
from engine import formulas
from engine.answers import MAX_UNITS, Parsed, Unreadable, parse_quantity
from engine.expr import MAX_TEXT
from engine.grading import CORRECT, INVALID, WRONG, Expected, grade, understood
from engine.units import KIND_DIMS, KIND_IN_DIMS, KINDS, PLAIN, best_unit, dim_text
from question_bank import registry
from tests import problems

NUMERIC = [t.id for t in registry.all_templates()
           if any(s.expected.kind == "number" for s in problems.problem(t.id, 0).steps)]
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)  # the deep lane's fresh random seeds
PER_TEMPLATE = 12  # the first seeds of the lane's (tests/problems.py), shared with the property tests

# A unit of another dimension for each kind: it changes the B or s exponent of whatever it
# multiplies (FLOP alone may be implied by a plain factor, so it is never the only change).
WRONG_UNIT = {"bytes": "ms", "bandwidth": "GB", "flop": "GB", "flop_rate": "TB/s", "intensity": "ms",
              "time": "GB", "tok_rate": "GB", "bits": "ms",
              **dict.fromkeys(("dollars", "usd_per_gpu_hour", "usd_per_mtok", "gpu_hours", "req_rate", "step_rate",
                               "power", "energy_per_token", "mwh"), "GB")}
# The factors a formula converts hours or millions with (÷ 3600 for GPU-hours, × 10⁶ for $/Mtok, ÷ 10⁶ for MWh):
# written with units, the units convert (7e6 GPU-h × 700 W is MWh), so the factor is left out, as a person
# writing units does (typed as well, the reader refuses it with its reason: converted twice).
CONVERSIONS = (3600.0, 1e6)
CONVERTED = frozenset(k for k in KIND_IN_DIMS if k != "bits")


def _number(x: float) -> str:
    return format(x, ".12g").replace("e+", "e")


def _quantity(value: float, kind: str) -> tuple[str, str | None]:
    """A given as a person writes it with its unit: ``989 TFLOP/s``, ``40 %``, ``70000000000``."""
    if kind == "count":
        return _number(value), None
    if kind == "ratio":
        return _number(value * 100), "%"
    sym, f = best_unit(value, kind)
    return _number(value / f), sym


class NotWritable(Exception):
    """A step whose answer is not a product/quotient of its givens (rounded to a whole number, a list)."""


def _write(node: ex.Node, f: formulas.Formula, inputs: dict, value: float, units: dict[str, str | None],
           swap: str | None = None) -> str:
    if isinstance(node, ex.Num):
        return node.text
    if isinstance(node, ex.Var):
        v = inputs[node.name]
        if isinstance(v, (list, tuple)):
            raise NotWritable
        number, unit = _quantity(float(v), f.input(node.name).kind)
        units[node.name] = unit
        if node.name == swap:
            unit = WRONG_UNIT[f.input(node.name).kind]
        return f"({number} {unit})" if unit else number
    if isinstance(node, ex.Neg):
        return f"-({_write(node.operand, f, inputs, value, units, swap)})"
    if isinstance(node, ex.Call):
        if node.fn not in ("min", "max") or any(isinstance(inputs.get(n), (list, tuple)) for n in ex.names_in(node)):
            raise NotWritable
        # the branch that is taken, as on a whiteboard: the roofline's min(peak, I × bw), a window's min(seq, window)
        pick = min if node.fn == "min" else max
        arg = pick(node.args, key=lambda a: ex.evaluate(a, inputs))
        return _write(arg, f, inputs, value, units, swap)
    if node.op == "^" and not (isinstance(node.right, ex.Num) and float(node.right.text).is_integer()):
        raise NotWritable  # √(C/120): the constant 120 carries units (FLOP per parameter²), a root of FLOP has none
    if node.op in "*/" and _converts(f):
        if isinstance(node.right, ex.Num) and node.right.value in CONVERSIONS:
            return _write(node.left, f, inputs, value, units, swap)
        if node.op == "*" and isinstance(node.left, ex.Num) and node.left.value in CONVERSIONS:
            return _write(node.right, f, inputs, value, units, swap)
    op = "**" if node.op == "^" else node.op
    left, right = _write(node.left, f, inputs, value, units, swap), _write(node.right, f, inputs, value, units, swap)
    if node.op in "+-" and _dimensioned(node.left, f) != _dimensioned(node.right, f):
        # a constant that carries the sum's unit (16 bytes per trainable parameter): written with it
        if _dimensioned(node.left, f):
            right = f"({right} {KINDS[f.unit]})"
        else:
            left = f"({left} {KINDS[f.unit]})"
    return f"({left} {op} {right})"


def _converts(f: formulas.Formula) -> bool:
    """The formula turns hours or millions by a factor of its own (GPU-h, $/GPU-h, $/Mtok, MWh)."""
    return f.unit in CONVERTED or any(i.kind in CONVERTED for i in f.inputs)


def _dimensioned(node: ex.Node, f: formulas.Formula) -> bool:
    """``node``, its givens written with their units, is not a plain number (``2 B × n``, not ``x B / y B``)."""
    return _dim(node, f) != PLAIN


def _dim(node: ex.Node, f: formulas.Formula) -> tuple[int, ...]:
    if isinstance(node, ex.Var):
        return KIND_DIMS[f.input(node.name).kind]
    if isinstance(node, ex.Neg):
        return _dim(node.operand, f)
    if isinstance(node, ex.Bin):
        a, b = _dim(node.left, f), _dim(node.right, f)
        if node.op == "*":
            return tuple(x + y for x, y in zip(a, b))
        if node.op == "/":
            return tuple(x - y for x, y in zip(a, b))
        if node.op == "^":
            return tuple(x * int(float(node.right.text)) for x in a) if isinstance(node.right, ex.Num) else a
        return a if a != PLAIN else b
    if isinstance(node, ex.Call):
        return _dim(node.args[0], f) if node.args else PLAIN
    return PLAIN


def _occurrences(node: ex.Node, name: str) -> int:
    if isinstance(node, ex.Var):
        return node.name == name
    if isinstance(node, ex.Neg):
        return _occurrences(node.operand, name)
    if isinstance(node, ex.Bin):
        return _occurrences(node.left, name) + _occurrences(node.right, name)
    if isinstance(node, ex.Call):
        return sum(_occurrences(a, name) for a in node.args)
    return 0


@pytest.mark.parametrize("tid", NUMERIC)
def test_the_answer_written_with_the_givens_and_their_units_is_correct(tid):
    for p in problems.each(tid, problems.seeds()[:PER_TEMPLATE]):
        _check_written_with_units(p)


@pytest.mark.deep
@pytest.mark.parametrize("tid", NUMERIC)
@settings(max_examples=PER_TEMPLATE, deadline=None)
@given(seed=SEEDS)
def test_the_answer_written_with_the_givens_and_their_units_is_correct_at_random_seeds(tid, seed):
    _check_written_with_units(registry.get(tid).generate(seed))


# Formulas whose givens' units do not reduce to the answer's, by a convention of the source: tp_max_degree is the JAX
# scaling book's F·W/C, where 2 bytes per bf16 element cancel 2 FLOPs per multiply-add (B/FLOP read as a count); an
# owned GPU-hour and the break-even utilisation price electricity in $ per kWh, which no unit kind spells (the
# formula's ÷ 1,000 turns W into kW and years × 8,760 counts hours), so W × $ reads as no unit of money per hour.
UNITS_CANCEL_BY_CONVENTION = frozenset({"tp_max_degree", "owned_gpu_hour_cost", "breakeven_utilisation"})


def _check_written_with_units(problem) -> None:
    for step in problem.steps:
        e = step.expected
        if e.kind != "number" or e.integer or step.formula is None:
            continue
        f = formulas.get(step.formula)
        if f.name in UNITS_CANCEL_BY_CONVENTION:
            continue
        units: dict[str, str | None] = {}
        inputs = dict(f.with_defaults(step.inputs))  # an omitted default (alpha 0, count_local true) is still written
        try:
            text = _write(f.shown_node(inputs), f, inputs, float(e.value), units)
        except NotWritable:
            continue
        if not any(units.values()) and e.unit_kind not in ("count", "ratio"):
            # every given is a count (s·b·h·34 bytes): the whole product is in the base unit, written after it
            text += " " + KINDS[e.unit_kind]
        if len(text) > MAX_TEXT:
            continue  # refused as too long, with a reason (test_answers)
        v = grade(text, e)
        assert v.status == CORRECT, (text, v.message)
        ok, line = understood(text, e)
        assert ok and line.startswith("= "), line
        for name, unit in units.items():
            if unit is None or unit == "%" or _occurrences(f.node, name) != 1:
                continue
            swapped = _write(f.shown_node(inputs), f, inputs, float(e.value), {}, swap=name)
            if len(swapped) > MAX_TEXT:
                continue
            w = grade(swapped, e)
            assert w.status == INVALID and w.quality is None, (swapped, w.message)


def test_the_property_covers_the_formulas_with_units():
    """The property above is not vacuous: most numeric templates have a step it writes with units."""
    written = 0
    for tid in NUMERIC:
        for step in problems.problem(tid, 1).steps:  # the bank's shared problems
            if step.expected.kind != "number" or step.expected.integer or step.formula is None:
                continue
            f = formulas.get(step.formula)
            units: dict[str, str | None] = {}
            inputs = dict(f.with_defaults(step.inputs))
            try:
                _write(f.shown_node(inputs), f, inputs, float(step.expected.value), units)
            except NotWritable:
                continue
            written += any(u for u in units.values())
    assert written >= 20


# --------------------------------------------------------------------------- the issue's examples

RIDGE = Expected("number", 989e12 / 3.35e12, "intensity", "FLOP/B")
ATTAINABLE = Expected("number", 4 * 1555e9, "flop_rate", "TFLOPS")
DECODE = Expected("number", 2039e9 / 140e9, "tok_rate", "tok/s")


@pytest.mark.parametrize("text, exp", [
    ("989 TFLOPS / 3.35 TB/s", RIDGE), ("989 TFLOPS ÷ (3.35 TB/s)", RIDGE), ("989e12 FLOP/s / 3.35e12 B/s", RIDGE),
    ("4 FLOP/B * 1555 GB/s", ATTAINABLE), ("4 FLOP/B × 1.555 TB/s", ATTAINABLE),
    ("2039 GB/s / 140 GB", DECODE), ("2.039 TB/s ÷ 140 GB", DECODE),
])
def test_the_issue_expressions_are_read_and_graded(text, exp):
    v = grade(text, exp)
    assert v.status == CORRECT, v.message
    for lang in ("en", "zh"):
        assert grade(text, exp).message_in(lang)


def test_the_understood_line_shows_the_combined_reading():
    assert understood("989 TFLOPS / 3.35 TB/s", RIDGE) == (True, "= 295.2 FLOP/B")
    assert understood("989 TFLOPS / 3.35 TB/s", RIDGE, "zh") == (True, "= 295.2 FLOP/B")
    assert understood("2039 GB/s / 140 GB", DECODE) == (True, "= 14.56 tok/s")


@pytest.mark.parametrize("text, kind, value, dim", [
    ("1e21 FLOP / (989 TFLOPS)", "time", 1e21 / 989e12, "s"),  # FLOP ÷ FLOP/s is seconds
    ("989 TFLOPS / (3.35 TB/s)", "intensity", 989 / 3.35, "FLOP/B"),
    ("2039 GB/s / 140 GB", "tok_rate", 2039 / 140, "1/s"),  # one token per pass over the weights
    ("8 GPUs × 80 GB", "bytes", 640e9, "B"), ("1 GB + 512 MB", "bytes", 1.512e9, "B"),
    ("2^30 B / (1 GB/s)", "time", 2**30 / 1e9, "s"), ("400 Gb/s × 2 s", "bytes", 100e9, "B"),
    ("(2 GB)^2 / (4 GB)", "bytes", 1e9, "B"),
])
def test_dimensions_combine(text, kind, value, dim):
    p = parse_quantity(text, kind)
    assert isinstance(p, Parsed), p
    assert p.value == pytest.approx(value)


def test_a_result_of_the_wrong_dimension_names_both_and_is_not_graded():
    v = grade("989 TFLOPS × 3.35 TB/s", RIDGE)
    assert v.status == INVALID and v.quality is None
    assert v.reason_in("en") == "989 TFLOPS × 3.35 TB/s is FLOP·B/s², the question asks for FLOP/B"
    assert v.reason_in("zh") == "989 TFLOPS × 3.35 TB/s 的量纲是 FLOP·B/s²，但题目问的是 FLOP/B"
    assert understood("989 TFLOPS × 3.35 TB/s", RIDGE)[0] is False
    inverted = grade("3.35 TB/s / 989 TFLOPS", RIDGE)
    assert inverted.status == INVALID and "is B/FLOP" in inverted.reason_in("en")
    plain = grade("1120 GB / 80 GB", Expected("number", 1.12e12, "bytes", "GB"))
    assert plain.status == INVALID and "is a plain number, the question asks for B" in plain.reason_in("en")
    assert "是纯数" not in plain.reason_in("zh") and "纯数" in plain.reason_in("zh")


@pytest.mark.parametrize("text, reason, zh", [
    ("1 GB + 1 s", "B and s cannot be added or subtracted", "B 和 s 量纲不同，不能相加减"),
    ("2 ^ (1 GB)", "an exponent must be a plain number", "指数必须是不带单位的纯数"),
    ("(1 GB)^9", "whole power up to 4", "不超过 4 的整数次幂"),
    ("2 GB GB", "a unit follows its number: 'GB' follows none", "单位要紧跟在数字后面"),
])
def test_unit_arithmetic_refusals_say_why(text, reason, zh):
    p = parse_quantity(text, "bytes")
    assert isinstance(p, Unreadable)
    assert reason in p.reason_in("en") and zh in p.reason_in("zh")


def test_a_symbol_with_two_readings_takes_the_one_of_the_asked_dimension():
    # "FLOPs" is a count here (FLOP ÷ FLOP/s = s), "FLOPS" a rate
    p = parse_quantity("4.2e23 FLOPs / (1000 × 989 TFLOPS)", "time")
    assert isinstance(p, Parsed) and p.value == pytest.approx(4.2e23 / (1000 * 989e12))


def test_a_flop_count_may_be_a_plain_number_as_on_a_whiteboard():
    # 6ΦD is a FLOP count written without the word FLOP: the time still comes out in seconds
    p = parse_quantity("6 × 70e9 × 1.4e12 / (1024 × 989 TFLOPS × 40 %)", "time", "day")
    assert isinstance(p, Parsed) and p.value == pytest.approx(6 * 70e9 * 1.4e12 / (1024 * 989e12 * 0.4))
    assert any("FLOP" in n for n in p.notes) and any("FLOP" in n for n in p.notes_in("zh"))


def test_dimension_text():
    assert dim_text((1, 1, -2)) == "FLOP·B/s²" and dim_text((0, 0, -1)) == "1/s"
    assert dim_text((0, -1, -1)) == "1/(B·s)" and dim_text((0, 0, 0)) == ""


# --------------------------------------------------------------------------- §2 suffixes

TFLOPS_Q = Expected("number", 6.2e12, "flop_rate", "TFLOPS")


def test_a_suffix_multiplies_the_base_unit_not_the_asked_one():
    v = grade("6.2T", TFLOPS_Q)
    assert v.status == CORRECT and v.given == "6.2 TFLOPS"
    assert "6.2T read as 6.2×1e12 FLOP/s" in v.notes_in("en")[0]
    assert "不带单位的后缀乘的是基本单位" in v.notes_in("zh")[0]
    assert grade("6200G", TFLOPS_Q).status == CORRECT
    assert grade("80G", Expected("number", 80e9, "bytes", "GB")).status == CORRECT
    assert grade("1.5k GB", Expected("number", 1.5e12, "bytes", "GB")).status == CORRECT  # with a unit: × the number


def test_two_plausible_readings_are_refused_showing_both():
    ms = Expected("number", 1.5, "time", "ms")  # 1500 ms: "1.5k" is 1500 s by the rule, 1500 ms as meant
    v = grade("1.5k", ms)
    assert v.status == INVALID and v.quality is None
    assert v.reason_in("en") == "1.5k reads two ways: 1500 s or 1500 ms; write the unit"
    assert v.reason_in("zh") == "“1.5k”有两种读法：1500 s，或 1500 ms；请写上单位"
    assert understood("1.5k", ms)[0] is False
    assert grade("1.5k ms", ms).status == CORRECT
    # 6.2T on a TFLOPS question has one plausible reading: 6.2e12 TFLOPS is not one
    assert grade("6.2T", TFLOPS_Q).status == CORRECT


# --------------------------------------------------------------------------- §3 scale slips

@pytest.mark.parametrize("text, exp, en, zh", [
    ("9.664 MB", Expected("number", 9.664e9, "bytes", "GB"),
     "Looks like you are exactly 1000 times too small: a unit prefix slipped; in GB it is 9.664.",
     "看起来你恰好小了 1000 倍：单位前缀错了；换算成 GB 是 9.664。"),
])
def test_a_scale_slip_is_named(text, exp, en, zh):
    """With its unit, a number off by a prefix is a named slip, graded."""
    v = grade(text, exp)
    assert v.status == WRONG and v.quality == 2
    assert v.message_in("en").endswith(en) and v.message_in("zh").endswith(zh)


@pytest.mark.parametrize("text, exp, en, zh", [
    ("9.664e9", Expected("number", 9.664e9, "bytes", "GB"), "add a unit: 9.664e9 B is 9.664 GB",
     "请加上单位：9.664e9 B 即 9.664 GB"),
    ("0.0045", Expected("number", 4.5e9, "bytes", "GB"), "add a unit: 0.0045 TB is 4.5 GB", "0.0045 TB 即 4.5 GB"),
    ("1500", Expected("number", 1.5, "time", "s"), "add a unit: 1500 ms is 1.5 s", "1500 ms 即 1.5 s"),
    ("0.0032", Expected("number", 3.2e-3, "time", "ms"), "add a unit: 0.0032 s is 3.2 ms", "0.0032 s 即 3.2 ms"),
    ("3200", Expected("number", 3.2e-3, "time", "ms"), "add a unit: 3200 µs is 3.2 ms", "3200 µs 即 3.2 ms"),
    ("128", Expected("number", 131072.0, "bytes", "B"), "add a unit: 128 KiB is 131072 B", "128 KiB 即 131072 B"),
])
def test_a_bare_number_in_another_scale_asks_for_its_unit(text, exp, en, zh):
    """Without a unit, the same slip is not graded: the number needs its unit."""
    v = grade(text, exp)
    assert v.status == INVALID and v.quality is None
    assert en in v.message_in("en") and zh in v.message_in("zh")


# --------------------------------------------------------------------------- §4 one error measure

def test_the_error_shown_is_the_one_judged():
    v = grade("1076", Expected("number", 1024.0, "count"))
    assert v.status == CORRECT
    assert "(+4.8 %)" in v.message_in("en") and "（+4.8 %）" in v.message_in("zh")
    assert v.relative_error == pytest.approx(52 / 1076)
    assert "|x − e| / max(|x|, |e|)" in v.band_in("en") and "误差 = |x − e| / max(|x|, |e|)" in v.band_in("zh")


# --------------------------------------------------------------------------- §5 exact numbers stay exact

def test_a_whole_number_is_shown_exactly_with_its_round_binary_size():
    from engine.formulas import result_text
    from engine.grading import display_number

    kv = formulas.get("kv_bytes_per_token")
    lines = kv.solution(layers=32, n_kv_heads=8, d_head=128, bytes_per_elem=2)
    assert lines[-1] == "  = 131,072 B (128 KiB)"
    assert result_text(1.25 * 2**30, "bytes") == "1,342,177,280 B (1.25 GiB)"
    assert result_text(137953296384, "bytes") == "137,953,296,384 B (138 GB)"  # whole, not a round binary size
    assert result_text(68976648192, "count") == "68,976,648,192"
    assert result_text(1.4e11, "bytes") == "1.4 × 10¹¹ B (140 GB)"  # exact already
    assert result_text(3.875e9, "bytes") == "3.875 × 10⁹ B (3.875 GB)"
    assert result_text(0.123456, "ratio").startswith("0.1235")  # not whole: significant figures
    # feedback and --json display: exact, and readable back
    assert display_number(131072, "bytes", "B") == "131072 B"
    assert display_number(131072, "bytes") == "131072 B"
    assert grade("131072 B", Expected("number", 131072.0, "bytes", "B")).status == CORRECT
    v = grade("128 KiB", Expected("number", 131072.0, "bytes", "B"))
    assert v.status == CORRECT and v.given == "131072 B" and v.expected == "131072 B"


def test_drill_calc_shows_the_kv_bytes_exactly(capsys):
    import json

    from drill.cli import main

    args = ["calc", "kv_bytes_per_token", "layers=32", "n_kv_heads=8", "d_head=128", "bytes_per_elem=bf16"]
    assert main(args) == 0
    assert "131,072 B (128 KiB)" in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"] == 131072 and doc["display"] == "131,072 B (128 KiB)"


# --------------------------------------------------------------------------- §6 approximations said as such

def _allreduce(n: int, m: float):
    from question_bank.spec import Ask, Spec
    from question_bank.spec import given as g
    from question_bank.template import Template, build_problem

    spec = Spec(asks=(Ask("Bytes each GPU sends?", "每张卡发送多少字节？", formula="allreduce_bytes", unit="GB"),),
                givens=(g("m", "Gradients", "梯度", m, "bytes", "GB"), g("n", "GPUs", "GPU 数", n)))
    t = Template("test.allreduce", "communication", "t", "t", 1, 60, lambda rng: spec)
    return build_problem(t, 0, spec).steps[0]


def test_an_approximation_within_tolerance_is_correct_and_said_to_be_one():
    step = _allreduce(32, 2e9)  # exact 2·31/32·2 GB = 3.875 GB; 2M = 4 GB is within 5 %
    assert step.too_close == ("no_ring_factor",)
    v = grade("4 GB", step.expected)
    assert v.status == CORRECT
    en = ("Exact is 2 × (N − 1) / N × M = 3.875 GB; 4 GB is 2 × M, the approximation that holds within ±5 % here "
          "(you dropped the (n-1)/n factor (2M is only the large-N limit)).")
    zh = ("精确值是 2 × (N − 1) / N × M = 3.875 GB；4 GB 是近似式 2 × M，在这里误差落在 ±5 % 以内"
          "（你漏了 (n-1)/n 因子（2M 只是 N 很大时的极限））。")
    assert v.message_in("en").endswith(en) and v.message_in("zh").endswith(zh)
    assert v.approximation_in("en") == en and v.notes_in("zh")[-1] == zh  # the notes the practice screen shows
    # the exact answer says nothing of the kind; nor does a small N, where 2M is a named mistake
    assert grade("3.875 GB", step.expected).approximation is None
    small = grade("4 GB", _allreduce(4, 2e9).expected)
    assert small.status == WRONG and "dropped the (n-1)/n factor" in small.message


@pytest.mark.parametrize("text", [" / ".join(["1 TFLOPs"] * 16), " * ".join(["2 FLOPS"] * 10), "1 GB + " * 24 + "1 s",
                                  "(" * 20 + "1 GB" + ") GB" * 20, "(1 GB)^400", "9**9**9 GB/s / 1 GB"])
@pytest.mark.parametrize("kind", ["bytes", "time", "flop"])
def test_hostile_unit_expressions_get_a_reason_or_a_value(text, kind):
    p = parse_quantity(text, kind)
    assert isinstance(p, (Parsed, Unreadable))
    assert isinstance(p, Parsed) or (p.reason and len(p.message) < 300)


def test_more_units_than_a_worked_answer_has_are_refused_saying_how_many():
    """Bounded work: every unit is bound, read (TFLOPs two ways) and checked, so an answer of 25 units took a
    millisecond to refuse; past MAX_UNITS it is refused, in both languages, before any of that."""
    most = MAX_UNITS
    p = parse_quantity(" + ".join(["1 GB"] * most), "bytes")
    assert isinstance(p, Parsed) and p.value == pytest.approx(most * 1e9)
    for text, n in ((" + ".join(["1 GB"] * (most + 1)), most + 1), (" / ".join(["1 TFLOPs"] * 16), 16),
                    ("1 GB + " * 24 + "1 s", 25)):
        p = parse_quantity(text, "bytes", "GB")
        assert isinstance(p, Unreadable) and p.why.code == "too_many_units"
        assert p.reason_in("en") == f"{n} units in one answer (at most {most}): write the result, or a shorter calculation"
        assert p.reason_in("zh") == f"一个答案里有 {n} 个单位（最多 {most} 个）：请直接写结果，或写更短的算式"
    v = grade(" + ".join(["1 GB"] * (most + 1)), Expected("number", (most + 1) * 1e9, "bytes", "GB"))
    assert v.status == INVALID and "units in one answer" in v.message
    # what the text itself gets wrong is still said first
    assert parse_quantity("1 GB 2 GB" + " + 1 GB" * most, "bytes").why.code == "expr.two_values"
