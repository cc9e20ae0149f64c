"""An answer that cannot be read is refused in the user's terms: what was not understood, as it
was typed, in English and Chinese; never the reader's own rewriting (``_Q0``), nor the words of the tools
behind it.  A bare number that is the answer in another scale is not graded: it needs a unit (§7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.answers import Parsed, Unreadable, parse_quantity
from engine.grading import grade
from engine.symbolic_answers import parse_expression
from engine.verdicts import INVALID, WRONG, Expected
from tests.problems import examples

LEAKS = ("_Q", "_Z", "sympy", "function call", "Syntax", "syntax", "Traceback", "ast.")


def refusal(text: str, kind: str = "bytes", unit: str = "GB") -> tuple[str, str]:
    r = parse_quantity(text, kind, unit)
    assert isinstance(r, Unreadable), (text, r)
    return r.message_in("en"), r.message_in("zh")


@pytest.mark.parametrize("text, en, zh", [
    ("33 GB;", "a stray ';'", "多了一个“;”"),
    ("33;", "a stray ';'", "多了一个“;”"),
    ("33 GB 34 GB", "two values, '33 GB' and '34 GB': which one is your answer?", "“33 GB”和“34 GB”，哪一个是你的答案"),
    ("33 GB, 34 GB", "two values, '33 GB' and '34 GB'", "哪一个是你的答案"),
    ("3 GB 4", "two values, '3 GB' and '4'", "有两个数值"),
    ("33 # 45 GB", "'#' is not part of an answer", "“#”不能出现在答案里"),
    ("33 GB = 34", "a stray '='", "多了一个“=”"),
    ("3 GB +", "'+' has nothing after it", "“+”后面缺少数值"),
    ("2(3) GB", "write × between them", "请在中间写 ×"),
    ("1 000 GB", "a space inside a number ('1 000')", "数字中间有空格"),
])
def test_each_refusal_names_what_was_not_understood_as_typed(text, en, zh):
    got_en, got_zh = refusal(text)
    assert en in got_en and zh in got_zh
    assert not any(leak in got_en + got_zh for leak in LEAKS)


@pytest.mark.parametrize("text", ["33 GB per GPU", "33 GB/GPU", "33 GB per device", "33GB / gpu", "33 GB 每卡",
                                  "33 GB 每张卡", "33 GB per rank", "每卡 33 GB", "每张卡：33 GB", "33 GB/卡",
                                  "per GPU: 33 GB"])
def test_per_gpu_is_read_and_said_where_the_question_asks_a_per_gpu_figure(text):
    r = parse_quantity(text, "bytes", "GB", per_gpu=True)
    assert isinstance(r, Parsed) and r.value == 33e9
    assert "read as 33" in r.understood_in("en") and "per GPU" in r.understood_in("en")
    assert "按每卡" in r.understood_in("zh")


@pytest.mark.parametrize("text, qualifier", [("33 GB per GPU", "per GPU"), ("33 GB/GPU", "/GPU"),
                                             ("33 GB 每卡", "每卡"), ("33 GB per device", "per device"),
                                             ("每卡 33 GB", "每卡"), ("33 GB/卡", "/卡")])
def test_per_gpu_is_refused_where_the_question_asks_no_per_gpu_figure(text, qualifier):
    """An answer of "33 GB per GPU" to a question about a total is not read as 33 GB with a harmless word."""
    en, zh = refusal(text)
    assert en == (f"read as 33 GB {qualifier}, but this question does not ask for a per-GPU figure: write the answer "
                  f"without {qualifier!r}")
    assert zh == f"读作 33 GB（{qualifier}），但这道题问的不是每卡的量：请去掉“{qualifier}”再作答"


@pytest.mark.parametrize("text, kind, value", [
    ("70B × 2", "count", 140e9), ("16x70e9", "count", 1.12e12), ("(1 + 2) GB", "bytes", 3e9), ("1,120 GB", "bytes", 1.12e12),
    ("2^30 B", "bytes", 2.0**30), ("45%", "ratio", 0.45), ("989 TFLOPS / 3.35 TB/s", "intensity", 989 / 3.35),
    ("2 × 70e9 B", "bytes", 140e9), ("1.5k GB", "bytes", 1.5e12), ("≈ 14.5 ms", "time", 0.0145)])
def test_whiteboard_answers_still_read(text, kind, value):
    r = parse_quantity(text, kind)
    assert isinstance(r, Parsed), r.message_in("en")
    assert r.value == pytest.approx(value)


_ALPHABET = st.sampled_from(list("0123456789 .,+-*/^()eE#;:=@!?[]{}<>'\"_\\|~%&$xX×·÷−（）Φ中文")
                            + ["GB", "TB/s", "B", "FLOP", "TFLOPS", "ms", "per", "GPU", " ", "_Q0", "k", "1e9",
                               "sympy", "def", "lambda", "import", "**", "10⁹"])


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_ALPHABET, min_size=1, max_size=12).map("".join),
       st.sampled_from([("bytes", "GB"), ("flop_rate", "TFLOPS"), ("time", "ms"), ("count", ""), ("ratio", "%")]))
def test_no_message_leaks_the_readers_internals(text, asked):
    kind, unit = asked
    for shown in _messages(text, kind, unit):
        typed_leaks = [w for w in LEAKS if w in text]  # a word the user typed may be quoted back
        assert not any(leak in shown for leak in LEAKS if leak not in typed_leaks), (text, shown)


def _messages(text: str, kind: str, unit: str) -> list[str]:
    out = []
    v = grade(text, Expected("number", 1e9 if unit else 12.0, kind, unit))
    out += [v.message_in("en"), v.message_in("zh")]
    e = parse_expression(text, {"N": "n_dp"})
    if isinstance(e, Unreadable):
        out += [e.message_in("en"), e.message_in("zh")]
    return out


# --------------------------------------------------------------------------- §7: a bare number in another scale

@pytest.mark.parametrize("typed, en, zh", [
    ("320000000000", "add a unit: 320000000000 B is 320 GB", "请加上单位：320000000000 B 即 320 GB"),
    ("3.2e11", "add a unit: 3.2e11 B is 320 GB", "3.2e11 B 即 320 GB"),
    ("320000", "add a unit: 320000 MB is 320 GB", "320000 MB 即 320 GB"),
    ("0.32", "add a unit: 0.32 TB is 320 GB", "0.32 TB 即 320 GB"),
])
def test_a_bare_number_in_another_scale_is_not_graded_it_needs_a_unit(typed, en, zh):
    v = grade(typed, Expected("number", 320e9, "bytes", "GB"))
    assert v.status == INVALID and v.quality is None
    assert en in v.message_in("en") and zh in v.message_in("zh")


def test_with_a_unit_a_prefix_slip_is_still_the_named_misconception():
    v = grade("320 MB", Expected("number", 320e9, "bytes", "GB"))
    assert v.status == WRONG and v.miss is not None
    assert grade("320", Expected("number", 320e9, "bytes", "GB")).status == "correct"
    assert grade("9000", Expected("number", 9000.0, "time", "h")).status == INVALID  # 9000 s is 2.5 h
