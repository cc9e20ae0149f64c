"""A template (Template, registered by @template) and the problem it makes (Problem, built from its Spec)."""

from __future__ import annotations

import contextvars
import random
from collections.abc import Callable, Mapping
from dataclasses import field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from engine import convention_set as cs
from engine import formulas
from engine.langs import EN, ZH
from engine.messages import pick
from engine.records import frozen, replace
from engine.typography import en_typeset

from .chinese import tidy_zh
from .spec import Given, Spec, World, given_counts
from .steps import Step, build_step
from .topics import TOPICS


@frozen
class Problem:
    """A concrete problem: deterministic from (template, seed)."""

    template: Template
    seed: int
    givens: tuple[Given, ...]
    steps: tuple[Step, ...]
    scenario_en: str = ""
    scenario_zh: str = ""
    conventions_en: str = ""
    conventions_zh: str = ""
    worlds: tuple[World, ...] = ()  # the world(s) the template declared (question_bank.realism reads them)
    hardware: str | None = None  # the learner's chip the problem drew (drill ... --hardware ID), if any
    # the conventions it was drawn under, off their default (engine.convention_set): with template and seed it
    # identifies the problem; () is the seeds' conventions
    convention_set: tuple[tuple[str, str], ...] = ()
    model: str | None = None  # the learner's model the problem drew (drill ... --model ID), if any
    # the chosen conventions (off their default) a step's formula takes but the problem keeps at another value
    # whatever the choice (its ask gives the value, or MFU's definition): key -> the value it keeps
    fixed: tuple[tuple[str, str], ...] = ()

    @property
    def is_chain(self) -> bool:
        return len(self.steps) > 1

    @property
    def chosen_conventions(self) -> dict[str, str]:
        """The conventions the problem was drawn and is graded under, off their default (``{}``: the seeds')."""
        return dict(self.convention_set)

    @property
    def fixed_conventions(self) -> dict[str, str]:
        """The conventions the problem keeps whatever the learner chose (``{}`` when it follows every choice)."""
        return dict(self.fixed)

    def title_in(self, lang: str = EN) -> str:
        """The template's title as the problem's conventions write it (``Total training FLOPs (8ΦD)``)."""
        return cs.rendered(self.template.title_in(lang), self.chosen_conventions)

    def scenario(self, lang: str = EN) -> str:
        return pick(lang, self.scenario_en, self.scenario_zh)

    def conventions(self, lang: str = EN) -> str:
        return pick(lang, self.conventions_en, self.conventions_zh)

    @cached_property
    def _shown(self) -> dict[tuple[str, str], Any]:
        """The texts below, made once per language: a problem is immutable, and its givens table and prompt are
        read again at every redraw (the app's problem view, Browse) and by every check of the bank."""
        return {}

    def given_rows(self, lang: str = EN) -> list[tuple[str, str]]:
        """The givens table in ``lang``: (label, value as shown) per given."""
        rows = self._shown.get(("rows", lang))
        if rows is None:
            rows = self._shown["rows", lang] = tuple((g.label(lang), g.display_in(lang)) for g in self.givens)
        return list(rows)

    def prompt(self, lang: str = EN) -> str:
        """The whole problem as text: scenario, givens, conventions, then each step's question."""
        text = self._shown.get(("prompt", lang))
        if text is None:
            text = self._shown["prompt", lang] = self._prompt(lang)
        return text

    def _prompt(self, lang: str) -> str:
        lines = [self.scenario(lang)] if self.scenario(lang) else []
        if self.givens:
            colon = pick(lang, ": ", "：")  # a label's colon is the language's (精度：fp8)
            lines += [f"  {label}{colon}{shown}" for label, shown in self.given_rows(lang)]
        if self.conventions(lang):
            lines.append(self.conventions(lang))
        for s in self.steps:
            lines.append((f"{s.index + 1}. " if self.is_chain else "") + s.prompt(lang))
        return "\n".join(lines)

    def to_dict(self, lang: str = EN) -> dict:
        t = self.template
        d = {
            "template": t.id,
            "seed": self.seed,
            "topic": t.topic,
            "title": self.title_in(lang),
            "difficulty": t.difficulty,
            "lang": lang,
            "prompt": self.prompt(lang),
            "scenario": self.scenario(lang),
            "params": {g.name: (list(g.value) if isinstance(g.value, (list, tuple)) else g.value) for g in self.givens},
            "givens": [{"name": g.name, "label": g.label(lang), "value": g.value, "display": g.display_in(lang)}
                       | ({"from": str(g.origin)} if g.origin is not None else {}) for g in self.givens],
            "target_seconds": sum(s.target_seconds for s in self.steps),
        }
        if self.hardware is not None:
            d["hardware"] = self.hardware
        if self.convention_set:
            d["conventions"] = self.chosen_conventions
        if self.model is not None:
            d["model"] = self.model
        if self.fixed:
            d["fixed_conventions"] = self.fixed_conventions
        steps = [s.to_dict(lang) for s in self.steps]
        d["answer"] = steps[0]["answer"] if len(steps) == 1 else steps[-1]["answer"]
        d["solution"] = steps[0]["solution"] if len(steps) == 1 else [line for s in steps for line in s["solution"]]
        d["steps"] = steps
        return d


TemplateFn = Callable[[random.Random], Spec]


@frozen
class Template:
    """A registered template (see the module docstring); :meth:`generate` makes its problem for a seed."""

    id: str
    topic: str
    title: str
    title_zh: str
    difficulty: int  # 1 = given the formula, 2 = recall it, 3 = derive it
    target_seconds: int  # for the whole problem
    fn: TemplateFn = field(repr=False, compare=False)
    source: str = ""  # where its situation comes from: seed codes and engine.sources keys (shown readably)
    # the choosable conventions its problems follow (engine.convention_set keys): each is stated in the problem
    # and set from the learner's choice (Settings → conventions, --convention key=value)
    conventions: tuple[str, ...] = ()

    def title_in(self, lang: str = EN) -> str:
        return pick(lang, self.title, self.title_zh)

    def generate(self, seed: int, hardware: str | None = None, conventions: Mapping[str, str] | None = None,
                 model: str | None = None) -> Problem:
        """The problem of ``seed``; with ``hardware`` (an accelerator id, the learner's own among them) the
        templates that draw a GPU for it draw that chip where it suits the problem (question_bank.hardware.draw),
        and the problem records it; with ``model`` (a model id, the learner's own among them) the templates that
        draw a model draw that one where it suits the problem (question_bank.models.draw), recorded too.
        ``conventions`` (engine.convention_set: key -> value) are the learner's:
        the template follows those it declares, where the spec allows them (:func:`engine.convention_set.applies`),
        states them and computes with them; the problem records the ones it used off their default.  The draw
        is the same under every convention set (only what is counted changes) unless it would not fit a real GPU
        under the chosen one: a template whose draw checks a fit checks it under the problem's convention."""
        chosen_set = cs.canonical(conventions)  # every formula that takes one follows it (not only declared ones)
        dropped: dict[str, str] = {}  # the choices the spec refuses for this problem, by their value
        while True:
            token = _ACTIVE.set(chosen_set)
            refused: set[str] = set()  # what the spec refuses for the whole problem: drawn again without
            try:
                rng = random.Random(f"{self.id}:{int(seed)}")
                if hardware is None and model is None:
                    spec, drew, drew_model = self.fn(rng), False, False
                else:
                    from . import hardware as hw
                    from . import models as md

                    with hw.using(hw.get(hardware) if hardware is not None else None) as chip, \
                            md.using(md.get(model) if model is not None else None) as mine:
                        spec = self.fn(rng)
                    drew = chip is not None and chip.draws > 0
                    drew_model = mine is not None and mine.draws > 0
                problem = build_problem(self, int(seed), spec, chosen_set, refused, dropped)
            finally:
                _ACTIVE.reset(token)
            if not refused:
                break
            dropped |= {k: v for k, v in chosen_set.items() if k in refused}
            chosen_set = {k: v for k, v in chosen_set.items() if k not in refused}  # as the spec allows: again
        if drew or drew_model:
            problem = replace(problem, hardware=hardware if drew else None,
                                          model=model if drew_model else None)
        return problem

    @property
    def is_chain(self) -> bool:
        return self.chain_length > 1

    @cached_property
    def chain_length(self) -> int:
        return len(self.generate(0).steps)

    @cached_property
    def answer_kind(self) -> str:
        """What the answers are, one rule for single questions and chains: the kinds of its steps in the order
        they first come (``number``, ``choice``, ``expression``; ``number+choice`` when they differ).  Whether
        it is a chain is :attr:`chain_length`."""
        return "+".join(dict.fromkeys(s.expected.kind for s in self.generate(0).steps))


REGISTRY: dict[str, Template] = {}

# The conventions of the problem being drawn (Template.generate sets them): a template's text reads them with
# :func:`convention`.
_NONE: Mapping[str, str] = MappingProxyType({})  # read-only: a ContextVar default is shared by every context
_ACTIVE: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar("conventions", default=_NONE)


def convention(key: str) -> str:
    """The value of the choosable convention ``key`` for the problem being drawn (its default outside one)."""
    return _ACTIVE.get().get(key, cs.BY_KEY[key].default)


def template(id: str, *, topic: str, title: str, title_zh: str = "", difficulty: int = 1,
             target_seconds: int = 90, source: str = "", conventions: tuple[str, ...] = ()
             ) -> Callable[[TemplateFn], TemplateFn]:
    """Register a template function under ``id``; ``conventions``: the choosable conventions it follows."""
    if topic not in TOPICS:
        raise ValueError(f"{id}: unknown topic {topic!r}")
    unknown = [k for k in conventions if k not in cs.BY_KEY]
    if unknown:
        raise ValueError(f"{id}: unknown convention {unknown[0]!r}")

    def deco(fn: TemplateFn) -> TemplateFn:
        if id in REGISTRY:
            raise ValueError(f"template {id!r} registered twice")
        title_en = en_typeset(title)
        REGISTRY[id] = Template(id, topic, title_en, tidy_zh(title_zh) or title_en, difficulty, target_seconds, fn,
                                source, tuple(conventions))
        return fn

    return deco


def stated_conventions(keys: tuple[str, ...], used: set[str], chosen: Mapping[str, str], lang: str) -> str:
    """What a problem says of the choosable conventions ``keys`` it counts with (``used``), under ``chosen``."""
    return pick(lang, " ", "").join(cs.BY_KEY[k].statement(chosen.get(k, cs.BY_KEY[k].default), lang)
                                    for k in keys if k in used)


def _counts_with(s: Step, followed: Mapping[str, str]) -> dict[str, str]:
    """The conventions of ``followed`` step ``s`` is written under: all but those its formula takes and it kept at
    another value (a time divided by an MFU keeps 6Φ)."""
    if s.formula is None:
        return dict(followed)
    from engine import formulas

    f = formulas.get(s.formula)
    return {k: v for k, v in followed.items()
            if not (names := cs.takes(k, f)) or all(s.inputs.get(n) == x for n, x in cs.input_values(k, v).items()
                                                    if n in names)}


def _rendered_step(s: Step, chosen: Mapping[str, str]) -> Step:
    """``s`` with its prompt, solution and takeaway written under ``chosen`` (:func:`engine.convention_set.rendered`);
    the solution is still rendered when first read."""
    if not chosen:
        return s

    def lines(step: Step, lang: str) -> Callable[[], tuple[str, ...]]:
        return lambda: tuple(cs.rendered(x, chosen) for x in step.solution_lines(lang))

    return replace(s, prompt_en=cs.rendered(s.prompt_en, chosen), prompt_zh=cs.rendered(s.prompt_zh, chosen),
                   _solution=lines(s, EN), _solution_zh=lines(s, ZH),
                   takeaway=cs.rendered(s.takeaway, chosen), takeaway_zh=cs.rendered(s.takeaway_zh, chosen))


def build_problem(t: Template, seed: int, spec: Spec, chosen: Mapping[str, str] | None = None,
                  refused: set[str] | None = None, dropped: Mapping[str, str] | None = None) -> Problem:
    """``spec`` as a problem; ``chosen``: the learner's conventions off their default, followed by every step whose
    formula takes one (a key the spec does not allow for the whole problem is added to ``refused``:
    :meth:`Template.generate` draws it again without, and passes it as ``dropped``: key -> the value refused)."""
    from .steps import Counting

    counting = Counting(chosen)
    for key, value in (dropped or {}).items():  # kept at the default for the whole problem, by the spec's condition
        counting.kept(key, cs.BY_KEY[key].default, cs.condition(key, value))
    given_values = {g.name: g.value for g in spec.givens}
    steps: list[Step] = []
    worlds = () if spec.world is None else (spec.world,) if isinstance(spec.world, World) else tuple(spec.world)
    per_step = max(10, t.target_seconds // max(1, len(spec.asks)))
    for i, ask in enumerate(spec.asks):
        target = ask.target_seconds or per_step
        steps.append(build_step(t.id, t.conventions, i, ask, target, steps, given_values, counting, worlds))
    if refused is not None:
        refused |= counting.refused
    used = counting.used
    followed = {k: v for k, v in cs.canonical(counting.chosen).items() if k in used}
    scenario_en, scenario_zh = spec.scenario_en, spec.scenario_zh
    conventions_en, conventions_zh = spec.conventions_en, spec.conventions_zh
    # its text, written at the defaults, writes the conventions it counts with (``(6ΦD)`` -> ``(8ΦD)``); a template
    # that names a convention writes its own text under it already (engine.convention_set's convention())
    written = {k: v for k, v in followed.items() if k not in t.conventions}
    if written:
        steps = [_rendered_step(s, _counts_with(s, written)) for s in steps]
        scenario_en, scenario_zh, conventions_en, conventions_zh = (
            cs.rendered(x, written) for x in (scenario_en, scenario_zh, conventions_en, conventions_zh))
    # kept whatever the choice, by no step followed (a step that keeps 6Φ beside one that counts 8Φ is not fixed)
    fixed = {k: kv for k, kv in counting.fixed.items() if k not in followed}
    taken = tuple(formulas.get(a.formula) for a in spec.asks if a.formula)
    givens = tuple(g._replace(label_en=en_typeset(g.label_en), label_zh=tidy_zh(g.label_zh),
                              value_zh=tidy_zh(g.value_zh), counts=given_counts(g, taken)) for g in spec.givens)
    declared = tuple(t.conventions) + tuple(k for k in cs.BY_KEY if k in followed and k not in t.conventions)
    if used:  # the problem states the conventions it counts with
        conventions_en = " ".join(x for x in (conventions_en, stated_conventions(declared, used, counting.chosen, EN))
                                  if x)
        conventions_zh = conventions_zh + stated_conventions(declared, used, counting.chosen, ZH)
    for key, (value, why) in fixed.items():  # and the ones it keeps whatever the choice, with why
        conventions_en = " ".join(x for x in (conventions_en, cs.kept_statement(key, value, why, EN)) if x)
        conventions_zh = conventions_zh + cs.kept_statement(key, value, why, ZH)
    for en, zh in (counting.notes if followed else ()):  # why a kept step gives the same answer, if any follows
        conventions_en = " ".join(x for x in (conventions_en, en) if x)
        conventions_zh = conventions_zh + zh
    return Problem(t, seed, givens, tuple(steps), en_typeset(scenario_en), tidy_zh(scenario_zh),
                   en_typeset(conventions_en), tidy_zh(conventions_zh), worlds,
                   convention_set=tuple(followed.items()),
                   fixed=tuple((k, value) for k, (value, _) in fixed.items()))
