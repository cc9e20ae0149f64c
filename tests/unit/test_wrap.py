"""Text is broken where a person would break it: by display width (a Chinese character is two
cells), a number never split from its unit, a short formula kept whole, Chinese broken between characters, a
continuation under its bullet; the text itself never changes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from drill.widgets.formulas import wrap_formula
from engine.wrap import width, wrap, wrap_line
from question_bank import registry
from tests.problems import examples

UNIT_START = re.compile(r"^(B|GB|TB|MB|kB|TB/s|GB/s|B/s|FLOP|FLOP/s|GFLOP|TFLOP|TFLOPS|PFLOP/s|ms|s|µs|GiB|MiB)\b")


def split_from_unit(lines: list[str]) -> list[tuple[str, str]]:
    return [(a, b) for a, b in zip(lines, lines[1:])
            if a.rstrip() and (a.rstrip()[-1].isdigit() or a.rstrip()[-1] in "⁰¹²³⁴⁵⁶⁷⁸⁹")
            and UNIT_START.match(b.lstrip())]


def same_text(line: str, lines: list[str]) -> bool:
    return "".join(line.split()) == "".join("".join(p.split()) for p in lines)


CONVENTIONS = ("Conventions: GB = 1e9 B, TB/s = 1e12 B/s, TFLOPS = 1e12 FLOP/s; peaks are dense (no 2:4 sparsity); "
               "fp32 = 4 B, bf16/fp16 = 2 B, fp8/int8 = 1 B, int4 = 0.5 B per element.")
CONVENTIONS_ZH = ("约定：GB = 1e9 B，TB/s = 1e12 B/s，TFLOPS = 1e12 FLOP/s；峰值为稠密算力（不含 2:4 稀疏）；每个元素 "
                  "fp32 = 4 B，bf16/fp16 = 2 B，fp8/int8 = 1 B，int4 = 0.5 B。Φ_expert 是一个路由专家在所有 MoE 层上的参数之和。")


@pytest.mark.parametrize("text", [CONVENTIONS, CONVENTIONS_ZH])
@pytest.mark.parametrize("cells", range(30, 81, 5))
def test_a_number_stays_with_its_unit_and_a_short_formula_stays_whole(text, cells):
    lines = wrap(text, cells)
    assert all(width(line) <= cells for line in lines), lines
    assert same_text(text, lines)
    assert not split_from_unit(lines), lines
    for a in lines:  # "int4 =" | "0.5 B", "TP" | "= 8": never at the end or the start of a line
        assert not a.rstrip().endswith(("=", "≈")), lines
        assert not re.match(r"^\s*[=≈] ", a), lines


def test_chinese_breaks_between_characters_not_only_at_spaces():
    text = ("「Mixtral-8x7B 的 FLOPs 相当于约 13B 参数的稠密网络。部署起来也一样便宜吗？」"
            "权重为 bf16；专家分布在 4 张 H100 PCIe 上（专家并行）。")
    lines = wrap(text, 78)
    assert lines[0].endswith("便宜吗？」") and cell_len(lines[0]) > 70  # the line is filled, not cut at "13B"
    for a, b in zip(lines, lines[1:]):
        assert b[:1] not in "，。；：、）」" and a[-1:] not in "（「"


def test_a_continuation_hangs_under_its_bullet():
    line = "  - the weights take 2 × 46.7 × 10⁹ B = 93.4 GB, which fits on two cards of 80 GB each with room to spare"
    lines = wrap_line(line, 40)
    assert len(lines) > 2 and all(x.startswith("    ") and not x.startswith("     ") for x in lines[1:])
    assert not split_from_unit(lines)


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(sorted(t.id for t in registry.all_templates())), st.sampled_from(["en", "zh"]),
       st.integers(min_value=36, max_value=100))
def test_every_problem_and_worked_solution_keeps_numbers_with_their_units(template, lang, cells):
    problem = registry.get(template).generate(3)
    texts = [problem.scenario(lang) or "", problem.conventions(lang) or "", *(s.prompt(lang) for s in problem.steps)]
    for text in texts:
        lines = wrap(text, cells)
        assert same_text(text, lines)
        assert not split_from_unit(lines), lines
        assert all(width(x) <= cells for x in lines if " " in x.strip() or any(width(c) == 2 for c in x)), lines
    for line in problem.steps[0].solution_lines(lang):
        parts = wrap_formula(line, cells)
        assert not split_from_unit(parts), parts
