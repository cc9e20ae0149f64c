"""Answer kinds are classes the rest of the app asks (engine/kinds.py)."""

from __future__ import annotations

import pytest

from engine import kinds
from engine.grading import ANSWER_KINDS, CORRECT, INVALID, WRONG, Expected, Verdict, grade, understood
from engine.messages import Twin, say


def test_every_kind_reads_grades_shows_and_explains_itself():
    assert set(ANSWER_KINDS) == {"number", "choice", "expression", "layout"}
    for name, kind in ANSWER_KINDS.items():
        assert kind.name == name
        for method in ("grade", "read", "hint"):  # understood is read, said: one reading for both
            assert getattr(type(kind), method) is not getattr(kinds.AnswerKind, method), (name, method)


def test_a_new_kind_is_one_class():
    """Registering a class is all it takes for grade, understood, display and the hint to use it."""

    @kinds.register
    class Yes(kinds.AnswerKind):
        name = "yes_or_no"

        def grade(self, text, exp, seconds=None, target=None):
            word = text.strip().lower()
            if word not in ("yes", "no"):
                return Verdict(INVALID, None, Twin("yes or no"), str(exp.value), why=Twin("yes or no"))
            status = CORRECT if word == exp.value else WRONG
            return Verdict(status, 4 if status == CORRECT else 1, Twin(status), str(exp.value), word)

        def understood(self, text, exp, lang="en"):
            return text.strip().lower() in ("yes", "no"), text.strip()

        def hint(self, exp):
            return say("hint.plain")

    try:
        exp = Expected("yes_or_no", "yes")
        assert grade("Yes", exp).status == CORRECT
        assert grade("no", exp).status == WRONG
        assert not grade("maybe", exp).graded
        assert understood("no", exp) == (True, "no")
        assert exp.display == "yes" and exp.display_in("zh") == "yes"
        assert exp.answer_kind.hint(exp).text("zh") == "答案为纯数字"
        with pytest.raises(ValueError):
            kinds.register(Yes)  # a name is registered once
    finally:
        del ANSWER_KINDS["yes_or_no"]


def test_what_each_kind_says_about_its_answer():
    number = Expected("number", 1.12e12, "bytes", "GB")
    whole = Expected("number", 8.0, "count", "", integer=True)
    choice = Expected("choice", "memory-bound")
    expression = Expected("expression", "2*phi")
    assert number.answer_kind.hint(number).text("en") == "Answer in: GB"
    assert whole.answer_kind.hint(whole).text("zh") == "答案为整数"
    assert expression.answer_kind.hint(expression).text("en") == "Answer with an expression"
    assert number.answer_kind.placeholder(number) is None  # the screen's own example of a number
    assert expression.answer_kind.placeholder(expression).text("zh").startswith("一个公式")
    assert number.answer_kind.measured and not choice.answer_kind.measured
    assert expression.answer_kind.slow and not number.answer_kind.slow


def test_a_unit_kind_that_reads_data_types_has_its_note():
    """``bytes_per_elem=bf16`` reads as 2 B, ``scale_bits=fp16`` as 16 bits: each such kind says so in a message."""
    from engine.messages import MESSAGES
    from engine.units import UNIT_KINDS

    readers = [k for k in UNIT_KINDS.values() if k.per_dtype]
    assert {k.name for k in readers} == {"bytes", "bits"}
    assert all(f"note.dtype_{k.name}" in MESSAGES for k in readers)


def test_a_choice_hint_names_the_choices_in_each_language():
    """``drill ask`` prints the hint under a prompt: a Chinese learner reads (and may type) the Chinese labels."""
    from engine.choices import BOUND_CHOICES

    exp = Expected("choice", "memory-bound", choices=BOUND_CHOICES)
    hint = exp.answer_kind.hint(exp)
    assert hint.text("en") == "Choices: memory-bound / compute-bound"
    assert hint.text("zh") == "选项：访存受限 / 算力受限"
    assert grade("算力受限", exp).status == WRONG and grade("访存受限", exp).status == CORRECT
