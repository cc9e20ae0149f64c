"""Numbers, counts and roots as people write them on a whiteboard, in English and Chinese: each is read as
meant and graded Correct when its value is right, and the live line says how it was read (the preview is
the grade).  A form that cannot be read is refused saying, in the learner's language, what to type."""

from __future__ import annotations

import math
import random

import pytest

from engine.answers import Parsed, Unreadable, parse_quantity
from engine.grading import CORRECT, INVALID, Expected, grade, understood
from engine.langs import ZH
from engine.numerals import cn_integer, exact
from engine.units import UNIT_KINDS, lookup
from question_bank import registry
from tests import problems

from .test_live_reading import assert_preview_is_the_grade

# Φ = 70B and 16 bytes per parameter: 1,120 GB (the example, drill check memory.static_given --seed 25)
STATIC = registry.get("memory.static_given").generate(25, conventions={"bytes_per_param": "16"}).steps[0].expected


@pytest.mark.parametrize("text", [
    "70B × 16 B", "70B*16B", "16 bytes * 70B", "70B × 16B", "16 B × 70B", "70 B × 16 B", "16 bytes × 70 B",
    "16 B/param × 70B params", "70e9 params * 16 bytes/param", "70B params × 16 B/param", "16 bytes/param * 70B params",
    "70 billion × 16 B", "70 billion params × 16 bytes", "0.07 trillion × 16 B", "70000 million × 16 B",
    "1.12 T", "1120 G", "1120 Gbytes", "1.12 Tbytes", "1120 GBytes", "1.12 TB", "1.12T",
    "700亿 × 16 字节", "700亿参数 × 16字节", "1.12万亿字节", "1120 吉字节", "1120 千兆字节", "1.12 太字节",
    "112万兆字节", "70B参数×16字节", "16字节/参数 × 700亿参数", "约 1120 吉字节",
])
def test_the_commonest_forms_of_a_memory_answer_are_correct(text):
    assert (STATIC.unit, round(float(STATIC.value))) == ("GB", 1120 * 10**9)
    v = grade(text, STATIC)
    assert v.status == CORRECT, (text, v.message)
    assert_preview_is_the_grade(text, STATIC)


def test_b_is_read_the_one_way_that_gives_bytes_and_the_line_says_both():
    assert understood("70B × 16 B", STATIC) == (True, "= 1120 GB  (70B = 7 × 10¹⁰ (billion); 16 B = bytes)")
    assert understood("70B × 16 B", STATIC, ZH) == (True, "= 1120 GB（70B = 7 × 10¹⁰（十亿）；16 B = 字节）")
    # B alone, or spaced from its number, is bytes as before: one reading gives the asked dimension
    assert understood("70B", STATIC)[1] == "= 7e-8 GB"
    assert isinstance(parse_quantity("(125 TB/s) / (900 GB/s) * (2 B) / 2", "count"), Unreadable)
    # a count noun after the letter makes it a count multiplier on any question
    assert understood("2B参数×16字节", STATIC, ZH)[1] == "= 32 GB（2B 读作 2 × 10⁹（个数））"


@pytest.mark.parametrize("text, kind, unit, value", [
    ("2600亿", "count", "", 2.6e11), ("1750亿", "count", "", 1.75e11), ("3.2万MB", "bytes", "GB", 3.2e10),
    ("3.2万 MB", "bytes", "GB", 3.2e10), ("1.12万亿字节", "bytes", "GB", 1.12e12), ("175 吉字节", "bytes", "GB", 1.75e11),
    ("175 千兆字节", "bytes", "GB", 1.75e11), ("2 太字节", "bytes", "GB", 2e12), ("512 兆字节", "bytes", "GB", 5.12e8),
    ("百分之45", "ratio", "%", 0.45), ("百分之 4.5", "ratio", "%", 0.045), ("百分之四十五", "ratio", "%", 0.45),
    ("2块GPU", "count", "", 2), ("2张GPU", "count", "", 2), ("两张卡", "count", "", 2), ("61条请求", "count", "", 61),
    ("206 条", "count", "", 206), ("16 个请求", "count", "", 16), ("十六个请求", "count", "", 16), ("3 台", "count", "", 3),
    ("1000步", "count", "", 1000), ("2 块 B200", "count", "", 2), ("8 H100 GPUs", "count", "", 8),
    ("8 H100 × 80 GB", "bytes", "GB", 6.4e11), ("每秒24个token", "tok_rate", "tok/s", 24),
    ("每秒 8.7 个请求", "req_rate", "req/s", 8.7), ("24个token每秒", "tok_rate", "tok/s", 24),
    ("47.8万秒", "time", "h", 4.78e5), ("47.8万 s", "time", "h", 4.78e5),
    ("236 billion", "count", "", 2.36e11), ("1.5 trillion", "count", "", 1.5e12), ("70 bn", "count", "", 7e10),
    ("2.5 thousand GPUs", "count", "", 2500), ("3 million tokens", "count", "", 3e6), ("16 req", "count", "", 16),
    ("16 reqs", "count", "", 16), ("≈16 requests", "count", "", 16), ("12 nodes", "count", "", 12),
    ("8 experts", "count", "", 8), ("4 racks", "count", "", 4), ("3 waves", "count", "", 3), ("500 steps", "count", "", 500),
    ("512 nodes × 8 GPUs/node", "count", "", 4096), ("8.7 req/s × 200 tokens/req", "tok_rate", "tok/s", 1740),
    ("15T tokens × 6 FLOP", "flop", "", 9e13), ("6 × 70B params × 1.4T tokens", "flop", "", 6 * 7e10 * 1.4e12),
])
def test_numbers_as_written_read_as_meant(text, kind, unit, value):
    p = parse_quantity(text, kind, unit or None)
    assert isinstance(p, Parsed), (text, p.message)
    assert p.value == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text, en, zh", [
    ("2.6 × 亿", "'亿' multiplies the number right before it: write 2.6e11 or 260B", "“亿”要紧跟在数字后面：写成 2.6e11 或 260B"),
    ("billion", "'billion' multiplies the number right before it", "“billion”要紧跟在数字后面"),
    ("√(120 s)", "the root of s has no whole unit: under a square root every unit needs an even power",
     "s 开方后单位不是整数次幂"),
    ("(1 GB)^1.5", "a unit can be raised only to a whole power", "整数次幂"),
])
def test_a_form_outside_them_is_refused_saying_what_to_type(text, en, zh):
    p = parse_quantity(text, "count" if "亿" in text or "billion" in text else "time", None)
    if "GB" in text:
        p = parse_quantity(text, "bytes")
    assert isinstance(p, Unreadable)
    assert en in p.message_in("en") and zh in p.message_in("zh")


def test_chinese_numerals_and_exact_multiples():
    assert [cn_integer(s) for s in ("两", "十六", "两千六百亿", "一万亿", "三亿五千万", "一百零五")] == \
        [2, 16, 2.6e11, 10**12, 3.5e8, 105]
    assert cn_integer("两两") is None and cn_integer("十十") is None and cn_integer("百千") is None
    assert exact("3.2", 4) == "32e3" and float(exact("0.00012", 4)) == 1.2 and float(exact("1.12", 12)) == 1.12e12


def test_a_count_answer_takes_its_noun_in_both_languages():
    """serving.littles_law asks how many requests are in flight: the answer may name them."""
    for seed in (1, 2, 3):
        exp = problems.problem("serving.littles_law", seed).steps[0].expected
        n = round(float(exp.value))
        for text in (f"{n} req", f"{n} reqs", f"≈{n} requests", f"{n} 个请求", f"{n}条请求", f"{n} 条", f"约 {n} 个"):
            assert grade(text, exp).status == CORRECT, (seed, text)
            assert_preview_is_the_grade(text, exp)


def test_a_time_in_wan_seconds_is_correct_in_chinese():
    exp = problems.problem("mfu.train_time", 3).steps[0].expected
    v = grade("47.8万秒", exp)
    assert v.status == CORRECT and "47.8万 读作 478000" in understood("47.8万秒", exp, ZH)[1]


def test_the_young_daly_interval_is_written_with_a_root_and_its_units():
    """√(2δM): the root of s·h is a time."""
    for seed in (1, 2):
        p = problems.problem("reliability.young_daly", seed)
        g = {x.name: x for x in p.givens}
        exp = p.steps[0].expected
        delta = g["checkpoint_time"].value
        mtbf_h = g["node_mtbf"].value / 3600 / g["n_nodes"].value
        restart_min = g["restart_time"].value / 60
        inner = f"2 × {delta:g} s × ({mtbf_h:.6g} h + {restart_min:g} min)"
        plain = f"2*{delta:g}*({mtbf_h:.6g}*3600 + {restart_min:g}*60)"
        for text in (f"sqrt({inner})", f"√({inner})", f"({inner})^0.5", f"({inner})^(1/2)", f"({inner})**0.5",
                     f"sqrt({plain})/60", f"√({plain}) / 60", f"({plain})^0.5/60"):
            v = grade(text, exp)
            assert v.status == CORRECT, (text, v.message)
            assert_preview_is_the_grade(text, exp)
        v = grade(f"sqrt(2 × {delta:g} s)", exp)
        assert v.status == INVALID and "even power" in v.message


# --------------------------------------------------------------------------- #
# A corpus: the givens of 20 templates, written as people write them


def written_forms(value: float, kind: str, unit: str) -> list[str]:
    """``value`` (base units of ``kind``) in the forms of this module: number words, 万/亿, nouns, prefixes."""
    u = lookup(unit, kind) if unit else None
    x = u.from_base(value) if u is not None else value
    after = f" {unit}" if unit and unit != "%" else ("%" if unit == "%" else "")
    forms = [f"{x / 1e4:.12g}万{after}", f"{x / 1e3:.12g} thousand{after}"]
    if abs(x) >= 1e8:
        forms += [f"{x / 1e8:.12g}亿{after}", f"{x / 1e9:.12g} billion{after}"]
    if UNIT_KINDS[kind].counted:
        forms += [f"{x:.12g} 个", f"{x:.12g}张卡", f"{x:.12g} GPUs", f"{x:.12g} 块 H100"]
    if kind == "bytes" and value >= 1e6:
        forms += [f"{value / 1e9:.12g} 吉字节", f"{value / 1e9:.12g} G", f"{value / 1e9:.12g} Gbytes",
                  f"{value / 1e9:.12g} 千兆字节"]
    if unit == "%":
        forms.append(f"百分之{x:.12g}")
    # a number a person writes: no exponent in front of a word (1e-09 G is no one's)
    return [f for f in forms if "e" not in f.split()[0].split("万")[0].split("亿")[0]]


def corpus() -> list[tuple[str, Expected]]:
    ids = random.Random(37).sample(problems.template_ids(), 20)
    out = []
    for tid in ids:
        for g in problems.problem(tid, 1).givens:
            if not isinstance(g.value, (int, float)) or not g.value or g.kind not in UNIT_KINDS:
                continue
            exp = Expected("number", float(g.value), g.kind, g.unit or "")
            out += [(text, exp) for text in written_forms(float(g.value), g.kind, g.unit or "")]
    return out


def test_a_corpus_of_givens_written_as_people_write_them_reads_and_grades_correct():
    cases = corpus()
    assert len(cases) > 100
    for text, exp in cases:
        p = parse_quantity(text, exp.unit_kind, exp.unit or None)
        assert isinstance(p, Parsed), (text, exp.unit_kind, p.message)
        assert math.isclose(p.value, float(exp.value), rel_tol=1e-9), (text, p.value, exp.value)
        assert grade(text, exp).status == CORRECT, text
        assert_preview_is_the_grade(text, exp)
