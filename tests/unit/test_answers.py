"""engine.answers: reading what people type on a whiteboard."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import expr as ex
from engine.answers import Parsed, Unreadable, parse_list, parse_quantity
from engine.choices import BOUND_CHOICES, COMPUTE_BOUND, MEMORY_BOUND, Choice, parse_choice
from engine.symbolic_answers import parse_expression
from engine.units import KINDS


# The spellings a learner writes, each with the value it must read as (base units).
@pytest.mark.parametrize("text, kind, value", [
    ("1120", "bytes", 1120), ("1,120", "bytes", 1120), ("1.12e12", "bytes", 1.12e12), ("1.12E12", "bytes", 1.12e12),
    ("1120 GB", "bytes", 1.12e12), ("1.12 TB", "bytes", 1.12e12), ("1043 GiB", "bytes", 1043 * 2**30),
    ("14.5 tok/s", "tok_rate", 14.5), ("150 FLOP/B", "intensity", 150), ("2039/140", "tok_rate", 2039 / 140),
    ("2^10", "count", 1024), ("2**10", "count", 1024), ("16*70e9 B", "bytes", 1.12e12), ("45%", "ratio", 0.45),
    ("0.45", "ratio", 0.45), ("3.2 ms", "time", 3.2e-3), ("989 TFLOPS", "flop_rate", 989e12), ("1.5k", "count", 1500),
    ("3 × 4", "count", 12), ("3x4", "count", 12), ("16 x 70e9 B", "bytes", 1.12e12), ("8 ÷ 2", "count", 4),
    ("−3", "count", -3), ("1120GB", "bytes", 1.12e12),
    ("3.35TB/s", "bandwidth", 3.35e12), ("2039 GB/s", "bandwidth", 2039e9), ("70B", "count", 7e10),
    ("70e9", "count", 7e10), ("2M", "count", 2e6), ("1.12 × 10¹²", "bytes", 1.12e12), ("10⁹ B", "bytes", 1e9),
    ("14 GPUs", "count", 14), ("14 张", "count", 14), ("8 cards", "count", 8), ("4096 tokens", "count", 4096),
    ("312 TFLOPs", "flop_rate", 312e12), ("6e23 FLOPs", "flop", 6e23), ("420 GFLOP", "flop", 4.2e11),
    ("1 EFLOPS", "flop_rate", 1e18), ("1 µs", "time", 1e-6), ("1 μs", "time", 1e-6), ("5 us", "time", 5e-6),
    ("20 ns", "time", 2e-8), ("2 min", "time", 120), ("3 h", "time", 10800), ("2 day", "time", 172800),
    ("45 %", "ratio", 0.45), ("５０％", "ratio", 0.5), ("1 KiB", "bytes", 1024), ("1 TiB", "bytes", 2**40),
    ("2 PB", "bytes", 2e15), ("1 kB", "bytes", 1e3), ("400 Gbps", "bandwidth", 50e9), ("100 Gb/s", "bandwidth", 12.5e9),
    ("8 Gbit", "bytes", 1e9), ("16 b", "bytes", 2), ("14.5 Tokens/s", "tok_rate", 14.5), ("138.9 FLOPs/Byte", "intensity", 138.9),
])
def test_whiteboard_spellings(text, kind, value):
    p = parse_quantity(text, kind)
    assert isinstance(p, Parsed), p
    assert p.value == pytest.approx(value)
    assert p.kind == kind


def test_bits_and_bytes_say_which_was_understood():
    bits = parse_quantity("1120 Gb", "bytes")
    assert bits.value == 140e9 and any("bits" in n for n in bits.notes)
    assert parse_quantity("1120 GB", "bytes").notes == ()
    assert "bits" in parse_quantity("400 Gbps", "bandwidth").understood


def test_count_suffixes_are_noted():
    p = parse_quantity("70B", "count")
    assert p.value == 7e10 and p.notes
    # for a bytes question, B is a byte
    assert parse_quantity("70B", "bytes").value == 70


def test_bare_number_is_read_in_the_unit_asked_for():
    p = parse_quantity("1120", "bytes", "GB")
    assert p.value == 1.12e12 and p.bare and "GB" in p.notes[0]
    assert parse_quantity("3.2", "time", "ms").value == pytest.approx(3.2e-3)
    assert parse_quantity("3.2", "time").value == 3.2  # base unit
    assert parse_quantity("1.2 TB", "bytes", "GB").value == 1.2e12  # a typed unit wins
    with pytest.raises(ValueError):
        parse_quantity("1", "bytes", "parsecs")  # a template bug, not the user's


@pytest.mark.parametrize("text, kind, reason", [
    ("140 GB", "tok_rate", "GB is a size in bytes, not a token rate"),
    ("3 TB/s", "flop_rate", "TB/s is a bandwidth"),
    ("5 ms", "bytes", "ms is a time"),
    ("2 GB", "count", "not a count"),
])
def test_a_unit_of_the_wrong_kind_is_unreadable(text, kind, reason):
    p = parse_quantity(text, kind)
    assert isinstance(p, Unreadable) and reason in p.reason


HOSTILE = ["9**9**9**9", "10^10^10", "1" * 100_000, "(" * 5000 + "1" + ")" * 5000, "(" * 90 + "1" + ")" * 90,
           "nan", "NaN GB", "inf", "-inf", "∞", "Infinity", "1/0", "", "   ", "1e400", "10**400", "0^-1",
           "__import__('os').system('true')", "open('x')", "lambda: 1", "[1, 2]", "{}", "1 if 1 else 2",
           "1.2.3", "abc", "2 foo GB", "1 GB + 1 s", "0o10", "(1", "\x00", "😀", "1e", "2 ** ** 2",
           "9" * 199, "-" * 150 + "1", "\n\n", "1 GB\n2 GB",
           # the forms people write, gone wrong (engine.numerals): number words, classifiers, roots, names
           "两" * 199, "亿" * 199, "√" * 150, "每秒" * 90, "百分之" * 60, "2张" * 90, "1万" * 60, "2 块 B200 " * 18,
           "1.5 billion " * 16, "√(" * 30 + "1 s" + ")" * 30, "70B*" * 8 + "1 B", "1 T " * 40]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:20]))
@pytest.mark.parametrize("kind", ["bytes", "count", "ratio"])
def test_hostile_input_gets_a_reason(text, kind):
    p = parse_quantity(text, kind)
    assert isinstance(p, Unreadable)
    assert p.reason and len(p.message) < 300


@pytest.mark.parametrize("text, reason", [
    ("1120 gb", "case-sensitive: GB is bytes; Gb is bits"),
    ("1 tb", "TB is bytes"),
    ("1,12", "comma"),
    ("2 GB GB", "a unit follows its number"),
    ("nan", "not a finite number"),
    ("1" * 300, "too long"),
])
def test_reasons_are_specific(text, reason):
    assert reason in parse_quantity(text, "bytes").reason


@pytest.mark.parametrize("text, kind", [("h", "time"), ("x", "count"), ("GB", "bytes"), (" GB/s ", "bandwidth"),
                                        ("GB", "count"), ("%", "ratio"), ("about GB", "bytes")])
def test_a_unit_alone_says_the_number_is_missing(text, kind):
    p = parse_quantity(text, kind)
    assert isinstance(p, Unreadable)
    assert p.reason == f"a number is missing before the unit {text.replace('about', '').strip()!r}"
    assert "缺少数字" in p.reason_in("zh")


@pytest.mark.parametrize("text", ["0x10", "0X1f GB", "0b101", "0o17 ms"])
def test_hex_octal_binary_are_refused_not_read_as_a_product(text):
    p = parse_quantity(text, "bytes" if "GB" in text else "time" if "ms" in text else "count")
    assert isinstance(p, Unreadable) and "only decimal numbers" in p.reason, p


def test_times_x_still_multiplies():
    assert parse_quantity("16x70e9", "count").value == 1.12e12
    assert parse_quantity("0.5x2", "count").value == 1.0
    assert parse_quantity("10 x 0", "count").value == 0.0


@pytest.mark.parametrize("text", ["1e-400", "2.5e-999 GB", "1E-330"])
def test_a_nonzero_literal_that_underflows_is_refused(text):
    p = parse_quantity(text, "bytes")
    assert isinstance(p, Unreadable) and "too small" in p.reason and "会被当成 0" in p.reason_in("zh")
    assert parse_quantity("0e-400", "bytes").value == 0.0  # zero written with an exponent is zero


def test_unreadable_says_what_was_understood_so_far():
    p = parse_quantity("2 foo GB", "bytes")
    assert "GB" in p.understood and "understood so far" in p.message


@given(st.text(max_size=60), st.sampled_from(sorted(KINDS)))
def test_any_text_is_either_read_or_given_a_reason(text, kind):
    p = parse_quantity(text, kind)
    assert isinstance(p, (Parsed, Unreadable))
    if isinstance(p, Unreadable):
        assert p.reason
    else:
        assert p.value == p.value and abs(p.value) < float("inf")


@given(st.text(alphabet="0123456789.,+-*/^()eE kMGTBibs%×÷−⁰¹²³", max_size=40))
def test_arithmetic_looking_text_never_crashes(text):
    assert isinstance(parse_quantity(text, "bytes"), (Parsed, Unreadable))
    assert isinstance(parse_expression(text, {}), (ex.Num, ex.Var, ex.Neg, ex.Bin, ex.Call, Unreadable))


# --------------------------------------------------------------------------- lists

@pytest.mark.parametrize("text", ["10ms,12ms,8ms", "[10,12,8]ms", "[10, 12, 8] ms", "10, 12, 8 ms", "0.01,0.012,0.008",
                                  "10ms; 12ms; 8ms"])
def test_lists(text):
    assert parse_list(text, "time") == pytest.approx((0.01, 0.012, 0.008))


@pytest.mark.parametrize("text, reason", [("", "list of values"), ("1,,2", "list of values"), ("[]", "list of values"),
                                          ("10 GB, 2ms", "item 1"), ("1, abc", "item 2"), ("1," * 150, "too long")])
def test_bad_lists(text, reason):
    r = parse_list(text, "time")
    assert isinstance(r, Unreadable) and reason in r.reason


# --------------------------------------------------------------------------- choices

@pytest.mark.parametrize("text", ["memory-bound", "memory bound", "Memory-Bound.", "mem", "MEM", "bandwidth-bound",
                                  "带宽受限", "访存受限", "访存密集型", "1"])
def test_memory_bound_spellings(text):
    assert parse_choice(text, BOUND_CHOICES) is MEMORY_BOUND


@pytest.mark.parametrize("text", ["compute-bound", "compute bound", "Compute", "计算受限", "算力受限", "计算密集型", "2"])
def test_compute_bound_spellings(text):
    assert parse_choice(text, BOUND_CHOICES) is COMPUTE_BOUND


@pytest.mark.parametrize("text", ["", "   ", "both", "3", "0", "x" * 500])
def test_unknown_choice_is_unreadable(text):
    r = parse_choice(text, BOUND_CHOICES)
    assert isinstance(r, Unreadable) and r.reason


def test_choices_are_declared_per_question():
    yes_no = (Choice("yes", ("y", "是")), Choice("no", ("n", "否")))
    assert parse_choice("是", yes_no).key == "yes"
    assert isinstance(parse_choice("mem", yes_no), Unreadable)
    assert "expected one of: yes, no" in parse_choice("maybe", yes_no).reason


# --------------------------------------------------------------------------- expressions

@pytest.mark.parametrize("text", ["2*Phi + 14*Phi/N", "2Φ+14Φ/N", "2 phi + 14 phi / N", "2φ + 14φ/N_dp",
                                  "2Φ + 14Φ/n_dp", "Φ(2 + 14/N)", "2.0e0*Φ + 1.4e1*Φ/N", "2e0Φ + 14e0 Φ/N",
                                  "0.2e1 phi + 1.4E+1 phi/N"])
def test_expression_spellings(text):
    node = parse_expression(text, {"N": "n_dp", "N_dp": "n_dp"})
    assert not isinstance(node, Unreadable), node
    assert ex.names_in(node) == {"phi", "n_dp"}
    assert ex.evaluate(node, {"phi": 7e10, "n_dp": 8}) == pytest.approx(2 * 7e10 + 14 * 7e10 / 8)


@pytest.mark.parametrize("text, reason", [("", "empty"), ("x + 1", "unknown name 'x'"), ("Φ < 2", "a stray '<'"),
                                          ("Φ" * 300, "too long"), ("2Φ +", "can't read '2Φ +'")])
def test_bad_expressions(text, reason):
    r = parse_expression(text, {"N": "n_dp"})
    assert isinstance(r, Unreadable) and reason in r.reason


@pytest.mark.parametrize("text, kind, value", [
    ("80 GB × 14", "bytes", 1.12e12), ("80GB*14", "bytes", 1.12e12), ("16 B × 70e9", "bytes", 1.12e12),
    ("1120 GB / 80", "bytes", 14e9), ("3 ms × 2", "time", 6e-3),
    ("≈ 14.5", "tok_rate", 14.5), ("~1120 GB", "bytes", 1.12e12), ("about 1120 GB", "bytes", 1.12e12),
    ("约 14.5 tok/s", "tok_rate", 14.5), ("= 295", "intensity", 295), ("1120 GB.", "bytes", 1.12e12),
])
def test_whiteboard_decoration_and_a_unit_inside_a_product(text, kind, value):
    p = parse_quantity(text, kind)
    assert isinstance(p, Parsed), p
    assert p.value == pytest.approx(value)


@pytest.mark.parametrize("text", ["2 / 80 GB * 3", "1 GB + 1 s", "2 GB × 3 ms", "(2039 GB/s)/(140 GB)", "≈"])
def test_a_unit_expression_of_another_dimension_is_unreadable(text):
    assert isinstance(parse_quantity(text, "bytes"), Unreadable)


# --------------------------------------------------------------------------- in Chinese (engine/messages.py)

@pytest.mark.parametrize("text, kind, zh", [
    ("140 GB", "tok_rate", "GB 是字节数，但题目问的是每秒 token 数（tok/s）"),
    ("", "bytes", "答案为空"),
    ("1120 gb", "bytes", "未知单位“gb”（单位区分大小写：GB 表示字节数；Gb 表示比特数）"),
    ("2 GB GB", "bytes", "单位要紧跟在数字后面：“GB”前面没有数字"),
    ("nan", "bytes", "不是有限数（nan 或无穷大）"),
])
def test_reasons_in_chinese(text, kind, zh):
    p = parse_quantity(text, kind)
    assert isinstance(p, Unreadable) and p.reason_in("zh") == zh and p.reason_in("en") == p.reason


def test_how_an_answer_was_read_in_chinese():
    p = parse_quantity("1120", "bytes", "GB")
    assert p.understood_in("zh") == "= 1.12 TB（按题目要求的单位 GB 读取）"
    assert p.understood == "= 1.12 TB  (read in GB, the unit the question asks for)"
    assert parse_quantity("8960 Gb", "bytes").notes_in("zh") == ("Gb：小写 b 按比特读取，大写 B 才是字节",)
    assert parse_quantity("70B", "count").notes_in("zh") == ("B 读作 ×1e9",)
    assert parse_quantity("1.4e11 B", "bytes").understood_in("zh", shown="140 GB") == "= 140 GB"
    assert parse_quantity("1.4e11 B", "bytes", "GB").understood_in("zh", shown="0.14 TB") == "= 0.14 TB"
    assert parse_quantity("1120", "bytes", "GB").understood_in("zh", shown="1120 GB") == "= 1120 GB（按题目要求的单位 GB 读取）"


def test_choices_are_shown_and_listed_in_chinese():
    assert [c.shown("zh") for c in BOUND_CHOICES] == ["访存受限", "算力受限"]
    assert [c.shown() for c in BOUND_CHOICES] == ["memory-bound", "compute-bound"]
    r = parse_choice("maybe", BOUND_CHOICES)
    assert r.reason_in("zh") == "应为以下之一：访存受限、算力受限"
    assert r.reason == "expected one of: memory-bound, compute-bound"
    assert Choice("yes").shown("zh") == "yes"  # no Chinese label: the key
