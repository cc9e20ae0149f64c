"""The live line under an answer box shows the reading the grader grades: one function reads both
(engine.kinds.AnswerKind.read), for every answer kind and both languages.

A bare number on a question in % is the case that once parted: ``31/63`` was previewed as 0.4921 %
and graded as 49.21 %, Correct.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.grading import INVALID, Expected, grade, read, understood
from engine.langs import EN, ZH
from engine.typography import typeset
from engine.units import UNITS
from engine.verdicts import choice_shown
from question_bank import registry
from tests import problems

from .test_answers import HOSTILE

LANGS = (EN, ZH)


@cache
def bank_answers() -> dict[str, list[Expected]]:
    """One expected answer of each shape in the bank (kind, unit kind, unit), by kind: what learners answer."""
    shapes: dict[tuple, Expected] = {}
    for t in registry.all_templates():
        for step in problems.problem(t.id, 1).steps:
            e = step.expected
            shapes.setdefault((e.kind, e.unit_kind, e.unit, e.integer), e)
    out: dict[str, list[Expected]] = {}
    for (kind, *_), e in sorted(shapes.items(), key=lambda kv: tuple(map(str, kv[0]))):
        out.setdefault(kind, []).append(e)
    return out


def assert_preview_is_the_grade(text: str, exp: Expected) -> None:
    """The live line says exactly what was graded: readable when graded, the graded value, its notes."""
    r, v = read(text, exp), grade(text, exp)
    assert v.reading == r  # the grader graded this reading
    for lang in LANGS:
        ok, line = understood(text, exp, lang)
        assert line == r.text(lang)
        if v.status == INVALID and v.why is not None and r.readable:  # a proof out of time: readable, not graded
            assert exp.kind == "expression"
            continue
        assert ok == r.readable == v.graded, (text, line, v.message_in(lang))
        if not ok:
            assert line == v.reason_in(lang)  # the same reason the verdict gives
        elif exp.kind == "number":
            assert v.parsed is not None and v.parsed.value == r.value
            if exp.unit:  # the value as the verdict shows it, in the question's unit
                assert line.startswith(f"= {typeset(v.given, lang)}"), (text, line, v.given)
            for note in v.parsed.notes_in(lang):  # how it was read, as the verdict says it (typeset: 5 天)
                assert typeset(note, lang) in line
        elif exp.kind == "choice":
            assert line == "= " + choice_shown(exp.choices, v.given, lang)
        else:
            assert line == f"= {v.given}"


# The strategies below, made once per expected answer: their draws depend only on it, and making them again for each
# example (300 of them, a few dozen strategies each) was most of the properties' cost; the same examples are drawn.
@cache
def number_text(exp: Expected) -> st.SearchStrategy[str]:
    """Answers a learner types for a number: bare decimals and fractions (on a %-question too), units of the
    kind and others, percent signs, scientific notation, near the answer and far from it."""
    scale = st.sampled_from([1e-6, 1e-3, 0.01, 0.1, 0.45, 0.9, 1.0, 1.03, 1.5, 10.0, 100.0, 1000.0, 1e6])
    e = abs(float(exp.value)) or 1.0
    # the question's unit, none, %, and every unit of its kind (a few of another kind come through %)
    units = sorted({exp.unit, "", "%", *(sym for sym, meant in UNITS.items() if any(u.kind == exp.unit_kind
                                                                                    for u in meant))})
    decimal = st.builds(lambda k, fmt: format(e * k, fmt), scale, st.sampled_from([".4g", ".3f", ".2e", "g"]))
    fraction = st.builds(lambda a, b: f"{a}/{b}", st.integers(1, 999), st.integers(1, 999))
    number = st.one_of(decimal, fraction, st.integers(0, 10**6).map(str))
    spaced = st.builds(lambda n, sp, u: f"{n}{sp}{u}".strip(), number, st.sampled_from(["", " "]), st.sampled_from(units))
    # as people write them (engine.numerals): number words, 万/亿, a prefix alone, a count noun or classifier,
    # a joined B beside bytes, a root
    word = st.builds(lambda n, w: f"{n}{w}", decimal, st.sampled_from(
        ["万", "亿", "万亿", "千", " thousand", " million", " billion", " bn", " trillion", " T", " G", " k"]))
    noun = st.builds(lambda n, w: f"{n}{w}", number, st.sampled_from(
        [" req", " requests", " GPUs", " 个请求", "张卡", " 条", "块 B200", " H100 GPUs", "B params", "B参数"]))
    written = st.one_of(
        word, noun,
        st.builds(lambda w, u: f"{w} {u}".strip(), word, st.sampled_from(units)),
        st.builds(lambda n, m: f"{n}B × {m} B", number, number),
        st.builds(lambda n, m: f"{m} B/param × {n}B params", number, number),
        st.builds(lambda n, u: f"sqrt({n} {u} × {n} {u})".replace("  ", " "), number, st.sampled_from(units)),
        st.builds(lambda n: f"√({n})", number),
        st.builds(lambda n: f"百分之{n}", number),
        st.builds(lambda n: f"每秒{n}个token", number))
    return st.one_of(spaced, number, written, st.sampled_from(HOSTILE[5:]))


@settings(max_examples=problems.examples(300))
@given(st.data())
def test_a_number_is_previewed_as_it_is_graded(data):
    exp = data.draw(st.sampled_from(bank_answers()["number"]))
    assert_preview_is_the_grade(data.draw(number_text(exp)), exp)


@settings(max_examples=problems.examples(150))
@given(st.data())
def test_every_percent_question_previews_a_bare_fraction_or_decimal_as_graded(data):
    """The case that parted: a bare fraction or decimal where % is asked is read nearer the answer, both ways."""
    percent = [e for e in bank_answers()["number"] if e.unit in ("%", "x")]
    assert percent
    exp = data.draw(st.sampled_from(percent))
    a = data.draw(st.integers(1, 200))
    text = data.draw(st.sampled_from([f"{a}/{data.draw(st.integers(a, 400))}", f"{a / 400:.4f}", f"{a / 4:g}",
                                      f"0.{a:03d}"]))
    assert_preview_is_the_grade(text, exp)


@pytest.mark.parametrize("text, line, status, given_", [
    ("31/63", "= 49.21 %  (read as a fraction, not a percentage)", "correct", "49.21 %"),
    ("0.4366", "= 43.66 %  (read as a fraction, not a percentage)", "close", "43.66 %"),
    ("49.21", "= 49.21 %  (read in %, the unit the question asks for)", "correct", "49.21 %"),
    ("0.45 %", "= 0.45 %", "wrong", "0.45 %"),  # a unit typed: no other reading
])
def test_a_bare_fraction_on_a_percent_question_is_previewed_as_graded(text, line, status, given_):
    exp = problems.problem("pipeline.bubble_1f1b_given", 1).steps[0].expected
    assert (exp.unit, round(float(exp.value), 4)) == ("%", 0.4921)
    v = grade(text, exp)
    assert understood(text, exp) == (True, line) and (v.status, v.given) == (status, given_)
    assert understood(text, exp, ZH)[1].startswith(f"= {given_}")


@cache
def choice_text(exp: Expected) -> st.SearchStrategy[str]:
    names = [n for c in exp.choices for n in (c.key, *c.aliases, c.label_zh) if n]
    return st.one_of(st.sampled_from(names), st.sampled_from(names).map(str.upper),
                     st.integers(0, len(exp.choices) + 1).map(str), st.sampled_from(["", "maybe", "both", "？"]))


@settings(max_examples=problems.examples(150))
@given(st.data())
def test_a_choice_is_previewed_as_it_is_graded(data):
    exp = data.draw(st.sampled_from(bank_answers()["choice"]))
    assert_preview_is_the_grade(data.draw(choice_text(exp)), exp)


@settings(max_examples=problems.examples(100))
@given(st.data())
def test_a_layout_is_previewed_as_it_is_graded(data):
    exp = data.draw(st.sampled_from(bank_answers()["layout"]))
    degree = st.sampled_from([0, 1, 2, 3, 4, 8, 16, 64])
    text = data.draw(st.one_of(
        st.builds(lambda t, p, d, sep: sep.join([f"tp={t}", f"pp={p}", f"dp={d}"]), degree, degree, degree,
                  st.sampled_from([" ", ", ", "，"])),
        st.sampled_from([str(exp.value), "tp=8", "tp=8 pp=2", "8 2 4", "", "tp=x pp=2 dp=4"])))
    assert_preview_is_the_grade(text, exp)


def test_an_expression_is_previewed_as_it_is_graded():
    """A handful, not a property: each graded one runs a symbolic proof."""
    for exp in bank_answers()["expression"]:
        for text in (str(exp.value), "2*phi", "phi + 20*phi/N", "phi/0", "phi +", "x", "2Φ + 14Φ/N", ""):
            assert_preview_is_the_grade(text, exp)
