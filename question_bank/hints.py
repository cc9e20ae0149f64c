"""The hint ladder's words for one step of a problem (the rules, a hint's cap on the grade: :mod:`engine.hints`).

* Hint 1 names the formula and the quantity asked: the formula's name and meaning, the result's symbol and
  the unit asked for; never a number worked.
* Hint 2 writes the formula, then the same with the problem's numbers substituted (the worked solution's
  substitution line, :meth:`engine.formulas.Formula.solution`), without its result.

A question answered by a choice or a layout has no formula of its own: its hints name the formulas its card
shows (hint 1) and write them (hint 2), as symbols.  An expression question asks for the formula itself, so it
has hint 1 only: writing the formula would be the answer.  A question whose card shows no formula has none.
"""

from __future__ import annotations

from engine import formulas
from engine.grading import KindName
from engine.langs import EN
from engine.messages import Twin

from .steps import Step


def _quantity(step: Step, f: formulas.Formula, lang: str) -> str:
    unit = step.expected.unit if step.expected.answer_kind.measured else ""
    symbol = f.result_symbol or f.name
    if unit:
        return Twin(f"the quantity asked: {symbol}, in {unit}", f"所求的量：{symbol}，单位 {unit}").text(lang)
    return Twin(f"the quantity asked: {symbol}", f"所求的量：{symbol}").text(lang)


def _named(f: formulas.Formula, lang: str) -> str:
    return Twin(f"formula {f.name}: {f.meaning_in(lang)}", f"公式 {f.name}：{f.meaning_in(lang)}").text(lang)


def hint_levels(step: Step) -> int:
    """How many hints ``step`` has: 2, 1 (an expression question: its formula is the answer) or 0."""
    if step.formula:
        return 2
    if not step.card_formulas:
        return 0
    return 1 if step.expected.kind == KindName.EXPRESSION else 2


def hint_lines(step: Step, level: int, lang: str = EN) -> tuple[str, ...]:
    """The lines of hint ``level`` (1 or 2) of ``step`` in ``lang``; () when the step has no such hint
    (:func:`hint_levels`).  Hint 2's lines follow hint 1's (the screen and ``drill ask --hint 2`` show both)."""
    if level not in (1, 2):
        raise ValueError(f"a hint is 1 or 2, not {level!r}")
    if level > hint_levels(step):
        return ()
    if step.formula:
        f = formulas.get(step.formula)
        if level == 1:
            return (f"{_named(f, lang)}; {_quantity(step, f, lang)}" if lang == EN
                    else f"{_named(f, lang)}；{_quantity(step, f, lang)}",)
        # the formula and its substitution: the solution's first two lines (its third is the result)
        return tuple(f.solution(**step.inputs)[:2])
    cards = [formulas.get(name) for name in step.card_formulas]
    if level == 1:
        return tuple(_named(f, lang) for f in cards)
    return tuple(f.formula_text() for f in cards)


def hint_text(step: Step, level: int, lang: str = EN) -> tuple[str, ...]:
    """Every hint up to ``level`` with its heading (``Hint 1 · ...``), as the app and ``drill ask --hint`` print
    them; () when the step has no hint 1."""
    out: list[str] = []
    for n in range(1, level + 1):
        lines = hint_lines(step, n, lang)
        if not lines:
            break
        out.append(Twin(f"Hint {n}:", f"提示 {n}：").text(lang))
        out += [f"  {line}" for line in lines]
    return tuple(out)
