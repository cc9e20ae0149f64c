"""A resolved question of a problem (Step), and how an Ask of each answer kind becomes one."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import field
from functools import cached_property, partial
from typing import Any

from engine import convention_set as cs
from engine import expr as ex
from engine import formulas
from engine.count_nouns import FORMULA_NOUNS
from engine.formulas import conventions
from engine.grading import Approximation, ByConvention, Expected, KindName, Miss, display_number, distance
from engine.langs import EN, LANGS, ZH
from engine.messages import Twin, pick
from engine.records import frozen, replace
from engine.typography import en_typeset
from engine.units import lookup

from .chinese import tidy_zh
from .spec import Ask, Ref, World

# A step's worked solution: its lines, or a function that renders them when they are first read (Step.solution)
Lines = tuple[str, ...] | Callable[[], tuple[str, ...]]


@frozen
class Step:
    """One resolved question of a problem: everything needed to ask, grade and explain it."""

    index: int
    prompt_en: str
    prompt_zh: str
    expected: Expected
    # The worked solution (:attr:`solution`), or what renders it when first read: most problems made are never
    # explained (a session shows one; the property tests read a few), and rendering is most of making one.
    _solution: Lines = field(repr=False, compare=False)
    target_seconds: int
    formula: str | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    roofline: Mapping[str, Any] | None = None
    _solution_zh: Lines = field(default=(), repr=False, compare=False)  # :attr:`solution_zh`, or what renders it
    # misconceptions dropped because their value lands within tolerance of the answer without being it:
    # a different method the grader cannot tell apart here (an exact coincidence is not listed)
    too_close: tuple[str, ...] = ()
    takeaway: str = ""  # the solution's takeaway line, without its label
    takeaway_zh: str = ""
    derivation: int = 0  # lines saying where the factors come from or giving intermediate values
    card_formulas: tuple[str, ...] = ()  # catalogue formulas the template's card shows for this step

    def prompt(self, lang: str = EN) -> str:
        return pick(lang, self.prompt_en, self.prompt_zh)

    @cached_property
    def solution(self) -> tuple[str, ...]:
        """The worked solution in English, rendered when first read."""
        return self._solution() if callable(self._solution) else self._solution

    @cached_property
    def solution_zh(self) -> tuple[str, ...]:
        """The Chinese explanation lines, when they differ from :attr:`solution` (rendered when first read)."""
        return self._solution_zh() if callable(self._solution_zh) else self._solution_zh

    def solution_lines(self, lang: str = EN) -> tuple[str, ...]:
        """The worked solution in ``lang`` (formulas are the same in both languages)."""
        return pick(lang, self.solution, self.solution_zh or None)

    def takeaway_in(self, lang: str = EN) -> str:
        return Twin(self.takeaway, self.takeaway_zh).text(lang)

    @property
    def value(self) -> Any:
        return self.expected.value

    def to_dict(self, lang: str = EN) -> dict:
        e = self.expected
        measured = e.answer_kind.measured  # a unit and a tolerance band belong to a number's answer only
        return {
            "index": self.index + 1,
            "prompt": self.prompt(lang),
            "formula": self.formula,
            "inputs": {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in self.inputs.items()},
            "answer": {
                "kind": e.kind,
                "value": e.value,
                "unit": (e.unit or "") if measured else "",
                "unit_kind": e.unit_kind if measured else "",
                "display": e.display_in(lang),
                "tolerance": e.tolerance if measured else 0.0,
                "close": e.close if measured else 0.0,
                "choices": [c.key for c in e.choices],
            },
            "misconceptions": [{"key": m.key, "label": Twin(m.label, m.label_zh).text(lang), "value": m.value}
                               for m in e.misses],
            "solution": list(self.solution_lines(lang)),
            "takeaway": self.takeaway_in(lang),
            "target_seconds": self.target_seconds,
        }


def _resolve(value: Any, done: list[Step]) -> Any:
    if isinstance(value, Ref):
        return done[value.step].value
    return value


def _pick(en: Any, zh: Any, lang: str) -> Any:
    """An ask's override in ``lang`` (the English one when it has no Chinese), or None."""
    return pick(lang, en, zh)


def _explained(ask: Ask) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A choice/expression question's solution in both languages: its explanation, then its takeaway."""
    en = tuple(ask.explanation) + ((formulas.TAKEAWAY[EN] + ask.takeaway,) if ask.takeaway else ())
    zh_lines = tuple(ask.explanation_zh or ask.explanation)
    zh = zh_lines + ((formulas.TAKEAWAY[ZH] + ask.takeaway_zh,) if ask.takeaway_zh else ())
    return en, zh


class _Derived:
    """A step's :meth:`Formula.derivation`, made when its solution is first read in one language and kept for the
    other (the figures and formula lines are the same in both)."""

    __slots__ = ("f", "inputs", "extras", "shown", "_made")
    _made: formulas.Derivation | None

    def __init__(self, f: formulas.Formula, inputs: dict, extras: dict, shown: Mapping[str, str]) -> None:
        self.f, self.inputs, self.extras, self.shown, self._made = f, inputs, extras, shown, None

    def __call__(self) -> formulas.Derivation:
        if self._made is None:
            self._made = self.f.derivation(self.inputs, self.extras, shown=self.shown)
        return self._made


def _worked(f: formulas.Formula, ask: Ask, inputs: dict, extras: dict, shown: str, lang: str,
            derived: _Derived | None = None) -> tuple[str, ...]:
    """A number question's worked solution in ``lang``: the ask's lead lines, then the formula's derivation."""
    lead = pick(lang, ask.explanation, ask.explanation_zh or ask.explanation)
    lines = tuple(lead) + tuple(f.worked(inputs, lang, extras=extras, also=shown,
                                         derivation=derived() if derived is not None else None,
                                         decomposition=_pick(ask.decomposition, ask.decomposition_zh, lang),
                                         simplification=_pick(ask.simplification, ask.simplification_zh, lang),
                                         takeaway=_pick(ask.takeaway or None, ask.takeaway_zh or None, lang)))
    return _tidy(lines, lang)


def _layout_solution(ask: Ask, example: Any, lang: str) -> tuple[str, ...]:
    """A layout question's solution in ``lang``: the choice (explanation), the check of the example layout, then
    the takeaway."""
    en, zh = _explained(ask)
    lines, n = pick(lang, (en, len(ask.explanation)), (zh, len(ask.explanation_zh or ask.explanation)))
    return _tidy(lines[:n] + ask.layout.solution(example, lang) + lines[n:], lang)


def _tidy(lines: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """``lines`` as a problem shows them in ``lang``: Chinese without the spaces between Chinese words, both
    languages typeset (engine.typography)."""
    tidy = pick(lang, en_typeset, tidy_zh)
    return tuple(tidy(x) for x in lines)


class Counting:
    """What a problem counts with, filled in as its steps are built: the learner's ``chosen`` conventions (off
    their default), the ones some step counts with or states (``used``), those the spec refuses for the whole
    problem (``refused``: it is drawn again without them), those a step keeps whatever the choice (``fixed``:
    key -> (value, why)) and the sentences the problem adds (``notes``: (en, zh))."""

    def __init__(self, chosen: Mapping[str, str] | None = None) -> None:
        self.chosen = dict(chosen or {})
        self.used: set[str] = set()
        self.refused: set[str] = set()
        self.fixed: dict[str, tuple[str, str]] = {}
        self.notes: list[tuple[str, str]] = []

    def kept(self, key: str, value: str, why: str) -> None:
        self.fixed.setdefault(key, (value, why))

    def note(self, en: str, zh: str) -> None:
        if (en, zh) not in self.notes:
            self.notes.append((en, zh))


# The conditions (engine.formulas.conventions.WHEN) under which a step keeps the default while the problem's other
# steps follow the choice: MFU is defined with 6Φ, so a step that applies an MFU gives the same physical answer.
# Under any other condition (a small ring, a link that is no torus) the whole problem is drawn without the choice.
STEP_KEEPS = frozenset({"no_mfu"})


def _as_hfu(ask: Ask, inputs: dict, raw: Mapping[str, Any], steps: list[Step], counting: Counting) -> Ask:
    """A step that divides FLOPs counted with kΦ per token (a Ref to an earlier step) by an MFU divides by the
    hardware utilisation HFU = MFU × k/6 instead: MFU counts 6Φ by definition, so the time is the same."""
    ref = raw.get("flops")
    if not isinstance(ref, Ref) or "mfu" not in inputs:
        return ask
    k = steps[ref.step].inputs.get("flops_per_param_token", 6)
    if k == 6:
        return ask
    mfu = inputs["mfu"]
    inputs["mfu"] = mfu * k / 6
    k_text = f"{k:g}"
    counting.note(cs.HFU_NOTE[0].format(k=k_text), cs.HFU_NOTE[1].format(k=k_text))
    line = (f"HFU = MFU × {k_text}/6 = {mfu:.1%} × {k_text}/6 = {inputs['mfu']:.1%} "
            f"({k_text}ΦD ÷ HFU = 6ΦD ÷ MFU)")
    line_zh = (f"HFU = MFU × {k_text}/6 = {mfu:.1%} × {k_text}/6 = {inputs['mfu']:.1%}"
               f"（{k_text}ΦD ÷ HFU = 6ΦD ÷ MFU）")
    return replace(ask, explanation=(*ask.explanation, line),
                   explanation_zh=(*(ask.explanation_zh or ask.explanation), line_zh))


def _number_step(template_id: str, i: int, ask: Ask, target: int, steps: list[Step],
                 given_values: Mapping[str, Any], conventions: tuple[str, ...] = (),
                 counting: Counting | None = None, worlds: tuple[World, ...] = ()) -> Step:
    """A number from a catalogue formula: its value, misconceptions, approximations and worked solution."""
    assert ask.formula is not None  # a number ask is one with a formula (Ask.kind)
    f = formulas.get(ask.formula)
    # a quiet convention is the default unless the ask names it: a given value of the same name
    # (a weights_bytes' bytes_per_param) is not the convention
    raw = ask.inputs if ask.inputs is not None else {n: given_values[n] for n in f.input_names
                                                     if not f.input(n).quiet}
    inputs = {k: _resolve(v, steps) for k, v in raw.items()}
    counting = counting if counting is not None else Counting()
    for key in cs.BY_KEY:  # the learner's conventions (default: the seeds'), where the formula takes them
        setting = counting.chosen.get(key, cs.BY_KEY[key].default)
        names = cs.takes(key, f)
        if not names:
            continue
        if setting == cs.BY_KEY[key].default:
            if key in conventions:  # the template states it even at its default
                counting.used.add(key)
            continue
        if any(n in inputs for n in names):  # the ask gives the value: the problem keeps it (unless it is the choice)
            if any(inputs.get(n) != v for n, v in cs.input_values(key, setting).items() if n in names):
                counting.kept(key, f.input(names[0]).value_text(inputs[names[0]]), "")
            continue
        why = cs.condition(key, setting)
        if cs.applies(key, setting, inputs, worlds, f):
            inputs.update({n: v for n, v in cs.input_values(key, setting).items() if n in names})
            counting.used.add(key)
        elif why in STEP_KEEPS:  # this step keeps the default by definition; the others follow the choice
            counting.kept(key, cs.BY_KEY[key].default, why)
            counting.note(*(x.format(k=setting) for x in cs.HFU_NOTE))
        else:
            counting.refused.add(key)
    ask = _as_hfu(ask, inputs, raw, steps, counting)
    value = exact = f.evaluate(**inputs)
    if ask.integer:
        value = float(round(value))
    env = {**{k: _resolve(v, steps) for k, v in ask.extras.items()}, **inputs}
    # a misconception that gives (nearly) the right answer here could not be told apart: drop it.
    # Whole-number answers are graded exactly, so only an exact coincidence is ambiguous there
    # (29 GPUs "rounded down" vs 30 is a real, nameable mistake).
    def distinct(v: float) -> bool:
        if not math.isfinite(v):
            return False
        return round(v) != value if ask.integer else distance(v, value) > ask.tolerance

    values = f.misconception_values(**env)
    misses = tuple(Miss(m.key, en_typeset(m.label), v, tidy_zh(m.label_zh)) for m, v in values if distinct(v))
    approximations = tuple(Approximation(m.key, en_typeset(m.label), tidy_zh(m.label_zh), v, ex.render(m.node, f.symbols))
                           for m, v in values
                           if math.isfinite(v) and not distinct(v) and distance(v, value) > 1e-9)
    too_close = tuple(a.key for a in approximations)
    unit = ask.unit
    if unit and lookup(unit, f.unit) is None:
        raise ValueError(f"{template_id}: unit {unit!r} is not a unit of {f.unit}")
    exp = Expected(KindName.NUMBER, value, f.unit, unit, ask.tolerance, ask.close, misses, integer=ask.integer,
                   approximations=approximations, formula=ex.render(f.shown_node(inputs), f.symbols),
                   per_gpu=f.per_device if ask.per_gpu is None else ask.per_gpu,
                   conventions=_by_convention(f, inputs, worlds, ask), noun=count_noun(f))
    f.check_via(inputs)
    extras = {k: _resolve(v, steps) for k, v in ask.extras.items()}
    shown = display_number(value, f.unit, unit) if unit and not ask.integer else ""
    takeaway, takeaway_zh = ask.takeaway or f.takeaway, ask.takeaway_zh or f.takeaway_zh
    shown_values = f.shown_values(inputs, extras, result=exact)
    derived = _Derived(f, inputs, extras, shown_values)
    solution, solution_zh = (partial(_worked, f, ask, inputs, extras, shown, lang, derived) for lang in LANGS)
    derivation = (len(ask.explanation) + len(f.parts)
                  + len(ask.decomposition if ask.decomposition is not None else f.decomposition)
                  + len(ask.simplification if ask.simplification is not None else f.simplification))
    return Step(i, en_typeset(ask.prompt_en), tidy_zh(ask.prompt_zh), exp, solution, target, f.name, inputs,
                ask.roofline, solution_zh, too_close,
                en_typeset(formulas.fill(takeaway, shown_values)), tidy_zh(formulas.fill(takeaway_zh, shown_values)),
                derivation, (f.name,) + tuple(ask.card_formulas))


def count_noun(f: formulas.Formula) -> str:
    """What a count formula's result counts (engine.count_nouns.FORMULA_NOUNS), "" for any other formula."""
    if f.unit != "count":
        return ""
    if f.name not in FORMULA_NOUNS:  # a new count formula says what it counts, or None for "any count"
        raise ValueError(f"{f.name}: a count formula needs a row in engine.count_nouns.FORMULA_NOUNS")
    return FORMULA_NOUNS[f.name] or ""


def _by_convention(f: formulas.Formula, inputs: Mapping[str, Any], worlds: tuple[World, ...],
                  ask: Ask) -> tuple[ByConvention, ...]:
    """The answers under the other published conventions of the formula's inputs (engine.formulas.conventions).

    Everything but the convention is the problem's own: its inputs as evaluated, whatever convention set it was
    made under.  The grader matches an answer against them and resolves a collision with a named misconception
    (engine.kinds).
    """
    found = []
    for a in conventions.alternatives(f, inputs, worlds):
        v = float(round(a.value)) if ask.integer else a.value
        if math.isfinite(v):
            found.append(ByConvention(v, a.row, a.own, a.own_value))
    return tuple(found)


def _layout_step(template_id: str, i: int, ask: Ask, target: int, steps: list[Step],
                 given_values: Mapping[str, Any]) -> Step:
    """A layout question: the preferred layout is the example answer, checked line by line."""
    example = ask.layout.preferred()
    if example is None:
        raise ValueError(f"{template_id}: no layout meets the constraints")
    exp = Expected(KindName.LAYOUT, example.text, layout=ask.layout)
    solution, solution_zh = (partial(_layout_solution, ask, example, lang) for lang in LANGS)
    return Step(i, en_typeset(ask.prompt_en), tidy_zh(ask.prompt_zh), exp, solution, target,
                _solution_zh=solution_zh, takeaway=en_typeset(ask.takeaway),
                takeaway_zh=tidy_zh(ask.takeaway_zh), derivation=len(ask.explanation),
                card_formulas=tuple(ask.card_formulas))


def _choice_step(template_id: str, i: int, ask: Ask, target: int, steps: list[Step],
                 given_values: Mapping[str, Any]) -> Step:
    """A choice question: the answer must be one of the choices."""
    if ask.answer not in {c.key for c in ask.choices}:
        raise ValueError(f"{template_id}: answer {ask.answer!r} is not one of the choices")
    exp = Expected(KindName.CHOICE, ask.answer, choices=ask.choices)
    en, zh = _explained(ask)
    return Step(i, en_typeset(ask.prompt_en), tidy_zh(ask.prompt_zh), exp, _tidy(en, EN), target, roofline=ask.roofline,
                _solution_zh=tuple(tidy_zh(x) for x in zh), takeaway=en_typeset(ask.takeaway),
                takeaway_zh=tidy_zh(ask.takeaway_zh),
                derivation=len(ask.explanation), card_formulas=tuple(ask.card_formulas))


def _expression_step(template_id: str, i: int, ask: Ask, target: int, steps: list[Step],
                     given_values: Mapping[str, Any]) -> Step:
    """An expression question: the canonical expression and its accepted spellings."""
    exp = Expected(KindName.EXPRESSION, ask.expression, aliases=tuple(ask.aliases.items()))
    en, zh = _explained(ask)
    return Step(i, en_typeset(ask.prompt_en), tidy_zh(ask.prompt_zh), exp, _tidy(en, EN), target,
                _solution_zh=tuple(tidy_zh(x) for x in zh), takeaway=en_typeset(ask.takeaway),
                takeaway_zh=tidy_zh(ask.takeaway_zh),
                derivation=len(ask.explanation), card_formulas=tuple(ask.card_formulas))


# How an Ask of each answer kind (engine.kinds) becomes a Step: one entry per kind.
STEP_BUILDERS: dict[str, Callable[..., Step]] = {
    KindName.NUMBER: _number_step, KindName.LAYOUT: _layout_step, KindName.CHOICE: _choice_step,
    KindName.EXPRESSION: _expression_step,
}


def build_step(template_id: str, conventions: tuple[str, ...], i: int, ask: Ask, target: int, steps: list[Step],
               given_values: Mapping[str, Any], counting: Counting | None = None,
               worlds: tuple[World, ...] = ()) -> Step:
    """Step ``i`` of a problem of template ``template_id`` (which states ``conventions`` even at their default):
    ``ask`` resolved against the ``steps`` before it and the givens.  A number step counts with the learner's
    conventions (``counting.chosen``) wherever its formula takes them and the spec allows them, and records in
    ``counting`` what it counted with, kept or could not follow."""
    if ask.kind == KindName.NUMBER:
        return _number_step(template_id, i, ask, target, steps, given_values, conventions, counting, worlds)
    if ask.kind == KindName.LAYOUT and counting is not None:
        _layout_counts(ask.layout, counting)
    return STEP_BUILDERS[ask.kind](template_id, i, ask, target, steps, given_values)


def _layout_counts(rules: Any, counting: Counting) -> None:
    """A layout's memory rule counts with the learner's convention its template passed it (LayoutRules.inputs:
    the recipe's bytes per parameter): the problem records and states it, as a number step's would be."""
    f, given = formulas.get(rules.memory_formula), dict(rules.inputs)
    for key, setting in counting.chosen.items():
        names = cs.takes(key, f)
        values = cs.input_values(key, setting)
        if setting == cs.BY_KEY[key].default or not names:
            continue
        if not cs.applies(key, setting, given, formula=f):  # no split of this recipe is published: drawn again
            counting.refused.add(key)
        elif all(given.get(n) == values.get(n) for n in names):
            counting.used.add(key)
