"""engine.grading: verdicts, bands, misconceptions, SM-2 quality."""

import math
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.answers import clean
from engine.choices import BOUND_CHOICES
from engine.grading import (
    CLOSE,
    CORRECT,
    INVALID,
    LOWERCASE_B,
    WRONG,
    Expected,
    Miss,
    bytes_misses,
    display_number,
    distance,
    grade,
    misconception_label,
    quality_for,
    understood,
)
from engine.units import KINDS, UNITS, lookup

from .test_answers import HOSTILE

BYTES_GB = Expected("number", 1.12e12, "bytes", "GB")


@pytest.mark.parametrize("text, status", [
    ("1120", CORRECT), ("1,120 GB", CORRECT), ("1.12 TB", CORRECT), ("1043 GiB", CORRECT), ("1.1e12 B", CORRECT),
    ("16*70e9 B", CORRECT), ("1100", CORRECT), ("1000", CLOSE), ("1300", CLOSE), ("1500", WRONG), ("140", WRONG),
    ("8960 Gb", CORRECT), ("140 tok/s", INVALID), ("abc", INVALID), ("", INVALID), ("1/0", INVALID),
])
def test_number_verdicts(text, status):
    assert grade(text, BYTES_GB).status == status


def test_feedback_states_the_band():
    v = grade("1000", BYTES_GB)
    assert v.band == "±5 % correct, ±20 % close; error = |x − e| / max(|x|, |e|)"
    assert "within ±20 %" in v.message and "±5 %" in v.message
    assert "within ±5 %" in grade("1120", BYTES_GB).message
    assert "more than ±20 % off" in grade("1500", BYTES_GB).message
    tight = Expected("number", 100.0, "count", tolerance=0.01, close=0.02)
    assert grade("97.5", tight).status == WRONG and grade("98.5", tight).status == CLOSE
    assert grade("99.5", tight).status == CORRECT
    assert grade("98.5", tight).band.startswith("±1 % correct, ±2 % close;")


def test_a_verdict_shows_both_answers_in_the_question_unit():
    v = grade("1.2 TB", BYTES_GB)
    assert (v.given, v.expected) == ("1200 GB", "1120 GB")
    assert v.relative_error == pytest.approx(80 / 1200)  # the judged measure: |x − e| / max(|x|, |e|)
    assert "+6.7 %" in v.message


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:20]))
def test_unreadable_is_invalid_never_wrong(text):
    for exp in (BYTES_GB, Expected("number", 0.45, "ratio", "%"), Expected("choice", "memory-bound", choices=BOUND_CHOICES),
                Expected("expression", "2*phi", aliases=(("N", "n"),))):
        v = grade(text, exp)
        assert v.status == INVALID and v.quality is None and not v.graded
        assert v.message.startswith("Can't read this answer: ")


def test_wrong_kind_is_invalid_with_a_message():
    v = grade("140 GB", Expected("number", 14.56, "tok_rate", "tok/s"))
    assert v.status == INVALID and "not a token rate" in v.message


def test_template_misconceptions_are_named():
    exp = Expected("number", 1.12e12, "bytes", "GB",
                   misses=(Miss("weights_only", "counted only the fp16 weights (2Φ)", 140e9),
                           Miss("same", "a slip that gives the right answer", 1.11e12)))
    v = grade("140 GB", exp)
    assert (v.status, v.quality, v.diagnosis_key) == (WRONG, 2, "weights_only")
    assert "Looks like you counted only the fp16 weights" in v.message
    assert grade("1.11 TB", exp).diagnosis == ""  # a misconception equal to the answer is never named
    # 140 GB is also 1120 GB ÷ 8: the template's own misconception comes before the generic unit slips
    assert grade("8960 GB", exp).diagnosis_key == "bits_for_bytes"
    assert grade("500 GB", exp).diagnosis == "" and grade("500 GB", exp).quality == 1


@pytest.mark.parametrize("text, key", [
    ("1043", "gib_for_gb"),  # computed in GiB, labelled GB
    ("8960 GB", "bits_for_bytes"),
    ("1120 Gb", "lowercase_b"),
    ("140 GB", "bytes_for_bits"),
])
def test_every_bytes_answer_checks_unit_slips(text, key):
    assert grade(text, BYTES_GB).diagnosis_key == key


def test_a_rounded_answer_is_not_blamed_on_a_unit_slip():
    """1 TB for 1,120 GB is the answer rounded to one figure, not a GiB figure (1,043 GB) that happens to be near."""
    v = grade("1 TB", BYTES_GB)
    assert v.status == CLOSE and not v.diagnosis_key
    assert grade("1043", BYTES_GB).diagnosis_key == "gib_for_gb"  # the slip itself is still named


def test_a_unit_slip_nearer_than_the_templates_mistake_is_named_first():
    """GRPO's 147.6 GB typed as the GiB figure 137.5 lies 4.6 % from "counted the policy only" (131.2 GB): the
    exact unit slip is the likelier and is named first; typing the mistake's own value names the mistake alone."""
    exp = Expected("number", 147.6e9, "bytes", "GB", misses=(Miss("policy_only", "counted the policy only", 131.2e9),))
    assert grade("137.5 GB", exp).diagnosis_key == "gib_for_gb+policy_only"
    assert grade("131.2 GB", exp).diagnosis_key == "policy_only"

def test_gib_questions_catch_the_gb_figure():
    exp = Expected("number", 100 * 2**30, "bytes", "GiB")
    assert grade("100", exp).status == CORRECT
    assert grade("107.4 GB", exp).status == CORRECT  # a GB figure labelled GB is right
    v = grade("107.4", exp)  # a GB figure labelled GiB is not
    assert v.status == CLOSE and v.diagnosis_key == "gb_for_gib"


def test_bandwidth_answers_catch_bits():
    exp = Expected("number", 50e9, "bandwidth", "GB/s")
    assert grade("400 Gbps", exp).status == CORRECT
    assert grade("50 Gb/s", exp).diagnosis_key == "lowercase_b"
    assert grade("400", exp).diagnosis_key == "bits_for_bytes"


@pytest.mark.parametrize("unit, text, status", [
    ("%", "45", CORRECT), ("%", "45%", CORRECT), ("%", "0.45", CORRECT), ("%", "0.5", CLOSE), ("%", "30", WRONG),
    ("", "0.45", CORRECT), ("", "45", CORRECT), ("", "45 %", CORRECT), ("", "4.5", WRONG),
])
def test_a_bare_ratio_may_be_a_fraction_or_a_percentage(unit, text, status):
    assert grade(text, Expected("number", 0.45, "ratio", unit)).status == status


def test_integer_answers_must_be_exact():
    exp = Expected("number", 14.0, "count", "GPUs", integer=True)
    assert [grade(t, exp).status for t in ("14", "14 GPUs", "14.0", "13", "7")] == [CORRECT, CORRECT, CORRECT, CLOSE, WRONG]
    assert "whole number" in grade("13", exp).message


def test_a_whole_number_that_is_a_named_mistake_is_wrong_not_close():
    exp = Expected("number", 10.0, "count", "GPUs", integer=True,
                   misses=(Miss("rounded_down", "rounded down instead of up", 9.0, "向下取整了，应向上取整"),))
    v = grade("9", exp)  # within the 20 % band, but 9 GPUs cannot hold the model
    assert (v.status, v.quality, v.diagnosis_key) == (WRONG, 2, "rounded_down")
    assert v.message.startswith("Wrong: a known mistake, not a near miss.") and "rounded down" in v.message
    assert v.message_in("zh").startswith("错误：这是一个典型错误") and "向下取整" in v.message_in("zh")
    assert (grade("11", exp).status, grade("11", exp).quality) == (CLOSE, 3)  # no mistake named: a near miss
    assert grade("5", exp).message.startswith("Wrong: more than")


def test_the_real_zero_planning_case_is_wrong_with_quality_2():
    from question_bank import registry

    step = registry.get("memory.zero_planning").generate(3).steps[3]
    below = float(step.expected.value) - 1
    assert any(m.key == "rounded_down" and m.value == below for m in step.expected.misses)
    v = grade(f"{below:g}", step.expected)
    assert (v.status, v.quality, v.diagnosis_key) == (WRONG, 2, "rounded_down")


def test_misconceptions_that_coincide_are_named_together():
    exp = Expected("number", 2e9, "bytes", "GB",
                   misses=(Miss("no_kv_factor", "forgot that both K and V are cached (factor 2)", 1e9,
                                "忘了 K 和 V 都要缓存（因子 2）"),
                           Miss("elements", "counted elements, not bytes", 1e9, "算的是元素个数，不是字节数"),
                           Miss("one_layer", "counted one layer", 2e7, "只算了一层")))
    v = grade("1 GB", exp)
    assert v.status == WRONG and v.quality == 2 and v.diagnosis_key == "no_kv_factor+elements"
    assert v.diagnosis == "forgot that both K and V are cached (factor 2) — or counted elements, not bytes"
    assert v.diagnosis_in("zh") == "忘了 K 和 V 都要缓存（因子 2），或者算的是元素个数，不是字节数"
    assert "Looks like you forgot that both K and V are cached (factor 2) — or counted elements" in v.message
    assert grade("0.02 GB", exp).diagnosis_key == "one_layer"  # one match: named alone


def test_a_bf16_kv_cache_names_both_halving_mistakes():
    from question_bank import registry

    t = registry.get("inference.kv_cache_size")
    seed = next(s for s in range(200) if t.generate(s).givens[-2].value == "bf16")
    exp = t.generate(seed).steps[0].expected
    half = display_number(float(exp.value) / 2, exp.unit_kind, exp.unit)
    assert set(grade(half, exp).diagnosis_key.split("+")) >= {"no_kv_factor", "elements"}


def test_a_stored_merged_label_reads_in_chinese():
    label = "forgot that both K and V are cached (factor 2) — or counted elements, not bytes"
    assert misconception_label(label, "zh") == "忘了 K 和 V 都要缓存（因子 2），或者算的是元素个数，不是字节数"
    assert misconception_label(label, "en") == label


def test_quality_mapping():
    assert quality_for(CORRECT, seconds=30, target_seconds=60) == 5
    assert quality_for(CORRECT, seconds=90, target_seconds=60) == 4
    assert quality_for(CORRECT) == 4
    assert quality_for(CLOSE) == 3
    assert quality_for(WRONG, misconception=True) == 2
    assert quality_for(WRONG) == 1
    assert quality_for(WRONG, dont_know=True) == 0
    assert quality_for(INVALID) is None
    assert grade("1120", BYTES_GB, seconds=20, target_seconds=60).quality == 5
    assert grade("1120", BYTES_GB, seconds=80, target_seconds=60).quality == 4


def test_choice_grading():
    exp = Expected("choice", "memory-bound", choices=BOUND_CHOICES)
    assert grade("带宽受限", exp).status == CORRECT
    assert grade("mem", exp, seconds=5, target_seconds=30).quality == 5
    v = grade("compute bound", exp)
    assert (v.status, v.quality) == (WRONG, 1) and "expected: memory-bound" in v.message
    assert grade("maybe", exp).status == INVALID


EXPR = Expected("expression", "2*phi + 14*phi/n_dp", aliases=(("N", "n_dp"), ("N_dp", "n_dp")))


@pytest.mark.parametrize("text, status", [
    ("2*Phi + 14*Phi/N", CORRECT), ("2Φ+14Φ/N", CORRECT), ("phi*(2+14/N)", CORRECT), ("(2N + 14)Φ/N", CORRECT),
    ("2 phi + 14 phi / N_dp", CORRECT), ("16Φ/N", WRONG), ("4Φ + 12Φ/N", WRONG), ("2Φ + 14Φ/N + 0.001", WRONG),
    ("x + 1", INVALID), ("9**9**9**9", INVALID), ("Φ/0", INVALID), ("Φ/(N-N)", INVALID), ("", INVALID),
])
def test_expression_grading(text, status):
    assert grade(text, EXPR).status == status


def test_expression_feedback_uses_the_question_symbols():
    v = grade("16Φ/N", EXPR)
    assert "You: 16 × Φ / N; expected: 2 × Φ + 14 × Φ / N" in v.message


def test_an_expression_beyond_the_whole_degree_bound_is_not_graded():
    exp = Expected("expression", "(phi + n)^2", aliases=(("N", "n"),))
    assert grade("(Φ + N)^2", exp).status == CORRECT
    v = grade("(Φ + N)^40 / (Φ + N)^38", exp)  # each power within its cap, the whole of degree 40
    assert v.status == INVALID and v.quality is None
    assert v.message.startswith("Not graded: too complex to check: of degree 40")


# --------------------------------------------------------------------------- properties

positive = st.floats(min_value=1e-9, max_value=1e15, allow_nan=False, allow_infinity=False)


@given(positive, positive, st.floats(min_value=1e-6, max_value=1e6))
def test_distance_is_symmetric_and_scale_invariant(x, e, k):
    assert distance(x, e) == distance(e, x)
    assert math.isclose(distance(x * k, e * k), distance(x, e), rel_tol=1e-9, abs_tol=1e-12)
    assert 0 <= distance(x, e) <= 1


@given(positive, positive, st.sampled_from([1e-6, 1e-3, 1.0, 1e3, 1e9]))
def test_tolerance_is_symmetric_and_scale_invariant(x, e, k):
    d = distance(x, e)
    assume(min(abs(d - 0.05), abs(d - 0.20)) > 1e-6)  # not on a band edge, where float rounding decides
    status = grade(repr(x), Expected("number", e, "count")).status
    assert grade(repr(e), Expected("number", x, "count")).status == status
    assert grade(repr(x * k), Expected("number", e * k, "count")).status == status


@given(st.floats(min_value=1e-6, max_value=1e18, allow_nan=False))
def test_an_answer_rounded_to_two_significant_figures_is_correct(e):
    rounded = float(f"{e:.1e}")
    assert grade(repr(rounded), Expected("number", e, "count")).status == CORRECT


def _units(kind):
    return sorted(s for s, cands in UNITS.items() if any(u.kind == kind for u in cands))


@given(st.floats(min_value=1e-6, max_value=1e20, allow_nan=False), st.data())
def test_a_quantity_grades_correct_against_itself_in_any_other_unit(value, data):
    kind = data.draw(st.sampled_from(sorted(KINDS)))
    asked = data.draw(st.sampled_from(["", *_units(kind)]))
    typed = data.draw(st.sampled_from(_units(kind)))
    text = display_number(value, kind, typed)
    v = grade(text, Expected("number", value, kind, asked))
    assert v.status == CORRECT, (text, asked, v.message)


@given(st.floats(min_value=1e-6, max_value=1e20, allow_nan=False), st.sampled_from(sorted(KINDS)), st.data())
def test_display_number_reads_back(value, kind, data):
    unit = data.draw(st.sampled_from(["", *_units(kind)]))
    exp = Expected("number", value, kind, unit)
    assert grade(exp.display, exp).status == CORRECT
    if unit:
        assert lookup(unit, kind) is not None


def test_expected_expression_is_displayed_in_the_question_symbols_and_reads_back():
    assert EXPR.display == "2 × Φ + 14 × Φ / N"
    assert grade(EXPR.display, EXPR).status == CORRECT


# --------------------------------------------------------------------------- in Chinese (engine/messages.py)

CJK = re.compile(r"[\u4e00-\u9fff]")
WEIGHTS = Expected("number", 1.12e12, "bytes", "GB",
                   misses=(Miss("weights_only", "counted only the fp16 weights (2Φ)", 140e9, "只算了 fp16 权重（2Φ）"),))


def test_number_verdicts_in_chinese():
    assert grade("1120", WEIGHTS).message_in("zh") == "正确（误差在 ±5 % 以内）。你的答案：1120 GB；正确答案：1120 GB。"
    close = grade("1200 GB", WEIGHTS)
    assert close.message_in("zh") == ("接近：误差在 ±20 % 以内，但要判为正确需在 ±5 % 以内。"
                                      "你的答案：1200 GB；正确答案：1120 GB（+6.7 %）。")
    wrong = grade("140 GB", WEIGHTS)
    assert wrong.message_in("zh").endswith("看起来你只算了 fp16 权重（2Φ）。")
    assert wrong.message == ("Wrong: more than ±20 % off. You: 140 GB; expected: 1120 GB (about 8× too low). "
                             "Looks like you counted only the fp16 weights (2Φ).")
    assert (wrong.diagnosis_in("zh"), wrong.diagnosis) == ("只算了 fp16 权重（2Φ）", "counted only the fp16 weights (2Φ)")
    assert wrong.band_in("zh") == "±5 % 以内为正确，±20 % 以内为接近；误差 = |x − e| / max(|x|, |e|)"
    whole = Expected("number", 14, "count", integer=True)
    assert grade("13", whole).message_in("zh").startswith("接近：误差在 ±20 % 以内，但要判为正确须是精确的整数。")
    assert grade("13", whole).band_in("zh") == "精确整数为正确，±20 % 以内为接近"


def test_an_unreadable_answer_says_why_in_chinese():
    v = grade("140 tok/s", BYTES_GB)
    assert v.message_in("zh") == "无法识别这个答案：tok/s 是每秒 token 数（tok/s），但题目问的是字节数"
    assert v.reason_in("zh") == "tok/s 是每秒 token 数（tok/s），但题目问的是字节数"
    assert v.reason_in() == "tok/s is a token rate (tok/s), not a size in bytes"
    assert grade("2 foo GB", BYTES_GB).reason_in("zh") == "未知的单位或词“foo”（已识别：单位 GB）"
    assert grade("Φ/0", EXPR).reason_in("zh") == "除以零"
    assert grade("1120", BYTES_GB).reason_in("zh") == ""


def test_unit_slips_are_named_in_chinese():
    assert grade("8960 Gb", Expected("number", 8960e9, "bytes", "GB")).diagnosis_in("zh") == \
        "把表示字节的 B 写成了小写 b（比特）"
    assert grade("8960", BYTES_GB).diagnosis_in("zh") == "给出的是比特数而不是字节数（× 8）"
    gib = Expected("number", 2**40, "bytes", "GiB")
    assert grade("1100", gib).diagnosis_in("zh") == "给出了 GB 的数值，而题目要的是 GiB（1 GiB = 1.074 GB）"
    assert all(CJK.search(m.label_zh) for m in bytes_misses(1e9, "GB") + bytes_misses(1e9, "TiB") + (LOWERCASE_B,))


def test_choice_and_expression_verdicts_in_chinese():
    exp = Expected("choice", "memory-bound", choices=BOUND_CHOICES)
    v = grade("compute bound", exp)
    assert v.message_in("zh") == "错误。你的答案：算力受限；正确答案：访存受限。"
    assert (v.given_in("zh"), v.expected_in("zh"), v.given, v.expected) == \
        ("算力受限", "访存受限", "compute-bound", "memory-bound")
    assert (grade("mem", exp).message_in("zh"), grade("mem", exp).band_in("zh")) == ("正确。", "须选对选项")
    assert exp.display_in("zh") == "访存受限" and exp.display_in() == exp.display == "memory-bound"
    e = grade("16Φ/N", EXPR)
    assert e.message_in("zh") == "错误。你的答案：16 × Φ / N；正确答案：2 × Φ + 14 × Φ / N。"
    assert e.band_in("zh") == "须与正确答案符号等价"


EXPECTATIONS = [BYTES_GB, WEIGHTS, Expected("number", 0.45, "ratio", "%"), Expected("number", 14, "count", integer=True),
                Expected("number", 295.2, "intensity", "FLOP/B"), Expected("choice", "memory-bound", choices=BOUND_CHOICES)]


@given(st.sampled_from(EXPECTATIONS), st.one_of(st.text(max_size=30), st.sampled_from(
    ["1120", "140 GB", "1000", "8960 Gb", "45", "0.45", "13", "mem", "compute", "295", "2 foo GB", "1,12", "70B"])))
def test_one_verdict_reads_in_both_languages(exp, text):
    v = grade(text, exp)
    assert v.message_in("en") == v.message
    if not CJK.search(clean(text)):  # the English quotes nothing Chinese unless the (NFKC) answer did
        assert not CJK.search(v.message)
    assert CJK.search(v.message_in("zh"))
    assert v.band_in("en") == v.band and (not v.band or CJK.search(v.band_in("zh")))
    assert len(v.notes_in("zh")) == len(v.notes)
    assert (v.reason_in("zh") != "") == (v.status == INVALID)


def test_understood_reads_without_grading_in_either_language():
    assert understood("1.4e11 B", Expected("number", 140e9, "bytes", "GB"), "zh") == (True, "= 140 GB")
    assert understood("1.4e11 B", Expected("number", 140e9, "bytes", "TB"), "zh") == (True, "= 0.14 TB")
    assert understood("140", Expected("number", 140e9, "bytes", "GB")) == \
        (True, "= 140 GB  (read in GB, the unit the question asks for)")
    # in the unit the question asks for, not the one the engine would pick (1.357 PFLOP/s)
    tflops = Expected("number", 1307e12, "flop_rate", "TFLOPS")
    for typed in ("1357 TFLOPS", "1.357 PFLOP/s", "1.357e15 FLOP/s"):
        assert understood(typed, tflops) == understood(typed, tflops, "zh") == (True, "= 1357 TFLOPS")
    assert understood("1357", tflops) == (True, "= 1357 TFLOPS  (read in TFLOPS, the unit the question asks for)")
    assert understood("1357", tflops, "zh") == (True, "= 1357 TFLOPS（按题目要求的单位 TFLOPS 读取）")
    assert understood("1.357e15 FLOP/s", Expected("number", 1307e12, "flop_rate")) == (True, "= 1.357 PFLOP/s")  # none asked
    assert understood("12 GB", Expected("number", 295.2, "intensity", "FLOP/B"), "zh") == \
        (False, "GB 是字节数，但题目问的是算术强度（FLOP/B）")
    choice = Expected("choice", "memory-bound", choices=BOUND_CHOICES)
    assert understood("mem", choice) == (True, "= memory-bound")
    assert understood("mem", choice, "zh") == (True, "= 访存受限")
    assert understood("2 phi + 14 phi / N_dp", EXPR) == (True, "= 2 × Φ + 14 × Φ / N")  # the question's symbols
    assert understood("Φ/0", EXPR, "zh") == (False, "除以零")  # exactly what grading would refuse


@given(st.sampled_from(EXPECTATIONS + [EXPR]), st.text(max_size=30))
def test_understood_agrees_with_grading(exp, text):
    ok, line = understood(text, exp, "zh")
    assert ok == (grade(text, exp).status != INVALID) and line


@pytest.mark.parametrize("text, ratio, en, zh", [
    ("5000", 5000 / 1120, "(about 4.46× too high).", "（偏高约 4.46 倍）。"),
    ("250", 250 / 1120, "(about 4.48× too low).", "（偏低约 4.48 倍）。"),
    ("1 GB", 1 / 1120, "(about 1,120× too low: a GB/TB slip?).", "（偏低约 1,120 倍：是不是把 GB 和 TB 弄混了？）。"),
    ("1.3 GB", 1.3 / 1120, "(about 862× too low: a GB/TB slip?).", "（偏低约 862 倍：是不是把 GB 和 TB 弄混了？）。"),
    ("1000 TB", 1e15 / 1.12e12, "(about 893× too high: a GB/MB slip?).", "（偏高约 893 倍：是不是把 GB 和 MB 弄混了？）。"),
    ("2000", 2000 / 1120, "(+44.0 %).", "（+44.0 %）。"),  # within a factor of 2: the percentage, as before
    ("600", 600 / 1120, "(-46.4 %).", "（-46.4 %）。"),
])
def test_an_error_beyond_a_factor_of_two_is_said_as_the_factor(text, ratio, en, zh):
    v = grade(text, BYTES_GB)
    assert v.ratio == pytest.approx(ratio)
    assert v.message.endswith(en) and v.message_in("zh").endswith(zh)
    assert v.relative_error == pytest.approx(math.copysign(distance(ratio, 1.0), ratio - 1))  # still the judged one


def test_a_factor_far_from_a_power_of_1000_names_no_slip_and_a_named_slip_is_said_once():
    v = grade("20", BYTES_GB)  # 56× too low: no unit is 56 times another
    assert "(about 56× too low)." in v.message and "slip" not in v.message
    exact = grade("1.12 GB", BYTES_GB)  # the figure in TB: the scale slip, named
    assert exact.status == WRONG and exact.diagnosis and "(about 1,000× too low)." in exact.message
    assert "a GB/TB slip?" not in exact.message  # the named mistake already says it


def test_a_slip_hint_only_for_quantities_with_prefixes():
    counts = Expected("number", 16.0, "count")
    v = grade("16000", counts)
    assert "(about 1,000× too high)." in v.message and "slip" not in v.message
    h = grade("250 h", Expected("number", 2.441 * 3600, "time", "h"))
    assert "(about 102× too high)." in h.message and "+99.0 %" not in h.message
