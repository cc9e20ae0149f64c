"""The app's words and drawings without a terminal: the string table, key names, the roofline plot,
the live "understood" line and the chain grading rule."""

from __future__ import annotations

import string
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from drill.core import home_figures, practice_run, sessions
from drill.core.i18n import STRINGS, t, when
from drill.widgets.roofline import POINT, RIDGE, draw, legend
from engine import formulas
from engine.review import Review
from engine.units import fmt_number, fmt_quantity
from question_bank import registry


def _fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


def test_every_ui_string_exists_in_both_languages_with_the_same_fields():
    for key, (en, zh) in STRINGS.items():
        assert en.strip() and zh.strip(), key
        assert _fields(en) == _fields(zh), key


def test_every_key_binding_of_the_app_is_named_in_the_table():
    from drill.app import SCREEN_PATHS, DrillApp, screen_class
    from drill.screens.mock_report import SolutionScreen
    from drill.screens.mock_run import ConfirmEndScreen, GoBackScreen, MockRunScreen

    screens = [screen_class(n) for n in SCREEN_PATHS if n != "stats"]  # stats names its keys in its own table
    for cls in [DrillApp, MockRunScreen, GoBackScreen, ConfirmEndScreen, SolutionScreen] + screens:
        for b in cls.BINDINGS:
            assert b.id in STRINGS, (cls.__name__, b.key)


def test_dates_are_said_as_people_say_them():
    today = date(2026, 11, 29)
    assert when(date(2026, 11, 29), today) == "today"
    assert when(date(2026, 11, 30), today, "zh") == "明天"
    assert when(date(2026, 12, 5), today) == "in 6 days (2026-12-05)"
    assert when(date(2026, 11, 20), today) == "now"
    assert t("practice.progress", "en", done=2, total=5) == "2/5"


@given(peak=st.floats(1e12, 1e16), bw=st.floats(1e11, 1e13), intensity=st.floats(0.05, 1e5),
       width=st.integers(30, 120), height=st.integers(6, 20))
def test_the_roofline_marks_the_ridge_and_the_kernel_on_the_right_side(peak, bw, intensity, width, height):
    plot = draw(peak, bw, intensity, width, height)
    assert len(plot.lines) == height
    assert all(len(line) <= width for line in plot.lines)
    text = "\n".join(plot.lines)
    ridge = peak / bw
    (rr, rc), (pr, pc) = plot.ridge, plot.point
    if (rr, rc) != (pr, pc):
        assert RIDGE in text
    assert POINT in text
    if intensity < ridge / 1.5:  # memory-bound: left of the ridge and below the flat roof
        assert pc <= rc and pr >= rr
    if intensity > ridge * 1.5:  # compute-bound: right of the ridge, on the flat roof
        assert pc >= rc and pr == rr


def test_the_roof_rises_then_stays_flat():
    plot = draw(989e12, 3.35e12, 40, 70, 12)
    rows = plot.lines[:-2]
    top_of = []
    for c in range(plot.margin, 70):
        filled = [r for r, line in enumerate(rows) if c < len(line) and line[c] not in " │"]
        top_of.append(min(filled) if filled else None)
    tops = [x for x in top_of if x is not None]
    assert tops == sorted(tops, reverse=True)  # rows count down as the roof goes up
    assert plot.lines[-2].lstrip().startswith("└") and "100" in plot.lines[-1]


def test_the_roofline_takes_its_figures_from_the_formula_catalogue(monkeypatch):
    peak, bw, intensity = 989e12, 3.35e12, 40.0
    ridge = formulas.get("ridge_point").evaluate(peak_flops=peak, bandwidth=bw)
    perf = formulas.get("attainable_flops").evaluate(intensity=intensity, peak_flops=peak, bandwidth=bw)
    line = legend(peak, bw, intensity, "zh")
    assert f"= {fmt_number(ridge)} FLOP/B" in line and fmt_quantity(perf, "flop_rate") in line
    assert f"（{t(formulas.classify_bound(intensity, ridge), 'zh')}）" in line
    calls = []
    real = formulas.get
    monkeypatch.setattr(formulas, "get", lambda name: calls.append(name) or real(name))
    draw(peak, bw, intensity, 60, 12)
    assert {"ridge_point", "attainable_flops"} <= set(calls)


def _step(template_id: str, kind: str):
    for seed in range(20):
        for s in registry.get(template_id).generate(seed).steps:
            if s.expected.kind == kind:
                return s
    raise AssertionError(f"no {kind} step in {template_id}")


def test_the_understood_line_reads_without_grading():
    step = _step("roofline.ridge_point", "number")
    assert practice_run.understood("", step) == (None, "")
    assert practice_run.understood("1000/2", step) == (True, "= 500 FLOP/B")
    ok, why = practice_run.understood("3 GB", step)
    assert ok is False and "GB" in why
    assert practice_run.understood("?", step) == (True, "?")
    choice = _step("roofline.classify_kernel", "choice")
    assert practice_run.understood("mem", choice) == (True, "= memory-bound")
    assert practice_run.understood("maybe", choice)[0] is False


def test_a_chain_is_as_good_as_its_weakest_step_but_one_slip_among_right_steps_passes():
    assert sessions.chain_quality([5, 2, 4]) == 3  # one slip, the other steps right: a pass
    assert sessions.chain_quality([5, 2, 3]) == 2 and sessions.chain_quality([1, 2, 4]) == 1
    assert practice_run.worst_verdict(["correct", "close", "correct"]) == "close"
    assert practice_run.worst_verdict(["wrong", "dont_know"]) == "dont_know"


def test_answers_are_counted_as_the_stats_count_them():
    chain = [{"item": "c", "seed": 1, "step": s} for s in (1, 2, 3)] + [{"item": "c", "seed": 1, "step": None}]
    mock = [{"item": "c", "seed": 2, "step": s} for s in (1, 2)]
    single = [{"item": "s", "seed": 3, "step": None}]
    assert home_figures.answers_count(map(Review.of, chain + mock + single)) == 1 + 2 + 1


def test_the_stats_weakest_column_names_templates_by_title_cut_to_fit():
    from types import SimpleNamespace

    from drill.core.stats import WEAK_TITLE, _cut, _width, weakest_names

    square, ridge = registry.get("roofline.gemm_intensity_square"), registry.get("roofline.ridge_point")
    topic = SimpleNamespace(topic="roofline", weakest=(square.id, ridge.id, "roofline.retired"))
    assert weakest_names(topic) == "Intensity of a square GEMM…, Ridge point of a GPU (formu…, retired"
    for lang in ("en", "zh"):
        for name in weakest_names(topic, lang).split(", "):
            assert _width(name) <= WEAK_TITLE
    assert weakest_names(topic, "zh").startswith("方阵 GEMM 的算术强度（给出…, ")
    assert _cut("短标题", 6) == "短标题" and _cut("一二三四", 6) == "一二…" and _width(_cut("一二三四", 5)) <= 5


def test_counts_of_one_are_singular_and_changes_have_a_unit_in_both_languages():
    from drill.core.i18n import points
    from drill.core.stats import tr

    assert t("mock.end_body", "en", n=1, total=5).startswith("1 of 5 answers is still missing; it counts")
    assert t("mock.end_body", "en", n=2, total=5).startswith("2 of 5 answers are still missing; they count")
    assert tr("accuracy_value", "en", pct="100 %", n=1) == "100 % of 1 answer correct or close"
    assert tr("accuracy_value", "en", pct="50 %", n=2) == "50 % of 2 answers correct or close"
    assert (points(-100), points(1), points(12.4), points(0)) == \
        ("\u2212100 points", "+1 point", "+12 points", "±0 points")
    assert points(-100, "zh") == "\u2212100 个百分点"
    for key in STRINGS:  # a singular has its plural beside it, with the same fields
        if key.endswith(".one"):
            assert _fields(STRINGS[key][0]) <= _fields(STRINGS[key.removesuffix(".one")][0]) | {"n"}, key


def test_a_ridge_question_marks_the_ridge_alone_and_the_axes_read_in_decades():
    plot = draw(989e12, 3.35e12, None, 76, 12)
    text = "\n".join(plot.lines)
    assert plot.point is None and RIDGE in text and POINT not in text
    x_axis = plot.lines[-1]
    assert all(f" {d} " in f" {x_axis} " for d in ("10", "100", "1k")) and x_axis.endswith("FLOP/B")
    assert "TFLOP/s" in text and "PFLOP/s" in text
    line = legend(989e12, 3.35e12, None)
    assert line == "◆ ridge point I* = 989 TFLOP/s ÷ 3.35 TB/s = 295.2 FLOP/B"


def test_a_kernel_question_marks_both_and_says_where_the_kernel_is():
    plot = draw(989e12, 3.35e12, 40, 76, 12)
    text = "\n".join(plot.lines)
    assert RIDGE in text and POINT in text and plot.point[1] < plot.ridge[1]
    assert legend(989e12, 3.35e12, 40).splitlines()[1].startswith("● this kernel I = 40 FLOP/B → 134 TFLOP/s")
