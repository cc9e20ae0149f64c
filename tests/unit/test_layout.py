"""engine.layout: reading a TP/PP/DP layout, checking it against a problem's constraints, grading it."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.grading import CORRECT, INVALID, WRONG, Expected, grade, misconception_label, understood
from engine.layout import Layout, LayoutRules, LayoutUnreadable, parse_layout

# Llama-3-70B-like: Φ = 70B, 80 layers, on 64 GPUs of 8 per node, ZeRO-1, 50 GB for the static state
RULES = LayoutRules(n_gpus=64, gpus_per_node=8, layers=80, phi=70e9, memory_formula="zero1_parallel_bytes",
                    budget_bytes=50e9)


def _exp(rules=RULES) -> Expected:
    return Expected("layout", rules.preferred().text, layout=rules)


@pytest.mark.parametrize("text", ["tp=8 pp=2 dp=4", "TP8 PP2 DP4", "8,2,4", "TP=8, PP=2, DP=4", "dp=4 tp=8 pp=2",
                                  "8 2 4", "8×2×4", "8x2x4", "tp 8, pp 2 and dp 4", "ＴＰ＝８，ＰＰ＝２，ＤＰ＝４",
                                  "tp:8; pp:2; dp:4", "  8, 2, 4  ", "TP8、PP2、DP4"])
def test_the_spellings_people_use(text):
    assert parse_layout(text) == Layout(8, 2, 4)


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("tp=8 pp=2", "DP is missing"),
    ("tp=8 tp=4 pp=2 dp=4", "TP is given twice"),
    ("tp=8 pp=2.5 dp=4", "not a whole number"),
    ("tp=0 pp=2 dp=4", "at least 1"),
    ("tp=8 pp=2 dp=4 please", "can't read 'please'"),
    ("8,2", "expected a layout"),
    ("eight, two, four", "expected a layout"),
    ("x" * 500, "too long"),
    ("tp=99999999 pp=1 dp=1", "too large"),
])
def test_unreadable_layouts_say_why(text, reason):
    got = parse_layout(text)
    assert isinstance(got, LayoutUnreadable)
    assert reason in got.why.en and got.why.zh and got.why.zh != got.why.en


@given(st.text(max_size=80))
def test_any_text_is_read_or_refused(text):
    got = parse_layout(text)
    assert isinstance(got, (Layout, LayoutUnreadable))
    if isinstance(got, Layout):
        assert min(got) >= 1


def test_constraints_and_the_valid_set():
    assert RULES.broken(Layout(8, 2, 4)) == ()
    assert RULES.broken(Layout(8, 1, 8)) == ()  # (280 + 105) GB / 8 = 48.1 GB
    def keys(layout):
        return [b.key for b in RULES.broken(layout)]

    assert keys(Layout(8, 4, 4)) == ["layout_product"]
    assert keys(Layout(16, 1, 4)) == ["layout_tp_node"]
    assert keys(Layout(8, 3, 4)) == ["layout_product", "layout_pp_layers"]
    assert keys(Layout(1, 1, 64)) == ["layout_memory"]  # 280 GB + 13 GB per GPU
    valid = RULES.valid()
    assert Layout(8, 2, 4) in valid and Layout(1, 1, 64) not in valid
    assert all(v.tp * v.pp * v.dp == 64 and not RULES.broken(v) for v in valid)
    assert RULES.preferred() == Layout(8, 1, 8)  # a full node of TP, the fewest stages that fit


def test_grading_any_valid_layout_is_correct():
    exp = _exp()
    for text in ("tp=8 pp=2 dp=4", "4,4,4", "TP8 PP1 DP8"):
        v = grade(text, exp)
        assert v.status == CORRECT and v.quality >= 4, text
    assert grade(exp.display, exp).status == CORRECT


def test_grading_a_broken_layout_names_the_constraint_in_both_languages():
    v = grade("tp=16 pp=2 dp=2", _exp())
    assert v.status == WRONG and v.quality == 2
    assert "TP = 16 does not fit in one node of 8 GPUs" in v.message_in("en")
    assert "TP = 16 放不进一个 8 卡的节点" in v.message_in("zh")
    assert v.diagnosis_key == "layout_tp_node"
    assert misconception_label(v.diagnosis, "zh") == v.diagnosis_in("zh") != v.diagnosis
    v = grade("1,1,64", _exp())
    assert v.status == WRONG and "over the 50 GB budget" in v.message and "超出了 50 GB 的预算" in v.message_in("zh")
    v = grade("8,3,3", _exp())
    assert v.diagnosis_key == "layout_product+layout_pp_layers"


def test_an_unreadable_layout_is_never_graded():
    v = grade("tp=8 pp=2", _exp())
    assert v.status == INVALID and v.quality is None and "DP is missing" in v.message
    assert understood("tp=8 pp=2", _exp()) == (False, parse_layout("tp=8 pp=2").why.en)
    assert understood("8,2,4", _exp(), "zh") == (True, "= tp=8 pp=2 dp=4")


def test_the_solution_checks_the_example_and_lists_every_valid_layout():
    lines = RULES.solution(Layout(8, 2, 4))
    assert lines[0].startswith("Rule: any layout with TP × PP × DP = 64")
    assert "  TP × PP × DP = 8 × 2 × 4 = 64" in lines
    assert any("M_ZeRO-1/GPU = (4 × Φ + 12 × Φ / N_dp) / (TP × PP)" in line for line in lines)
    assert lines[-1].startswith(f"Every valid layout ({len(RULES.valid())}): ")
    zh = RULES.solution(Layout(8, 2, 4), "zh")
    assert zh[0].startswith("规则：") and zh[-1].startswith("全部有效布局")
