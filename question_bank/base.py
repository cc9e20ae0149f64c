"""What a template is, and how one becomes a problem.

A template is a small function that draws a scenario from a seeded RNG and
returns a :class:`Spec`: the givens, the prompt in English and Chinese, and one
:class:`Ask` per step.  Everything else - the expected value, the worked
solution, the misconceptions that apply - comes from the engine's formula
catalogue, never from per-template code::

    @template("roofline.ridge_point", topic="roofline", title="Ridge point of a GPU",
              difficulty=1, target_seconds=60)
    def ridge_point(rng):
        gpu = rng.choice(hardware.GPUS)
        return Spec(
            givens=(given("peak_flops", "Peak dense bf16", "bf16 稠密峰值", gpu.bf16, "flop_rate", "TFLOPS"),
                    given("bandwidth", "HBM bandwidth", "显存带宽", gpu.bandwidth, "bandwidth", "TB/s")),
            asks=(Ask(formula="ridge_point", unit="FLOP/B",
                      prompt_en=f"What is the ridge point of the {gpu.name}?",
                      prompt_zh=f"{gpu.name} 的拐点算术强度是多少？"),),
        )

An :class:`Ask` whose ``inputs`` are not given takes the values of the givens
with the formula's input names; a :class:`Ref` to an earlier step uses that
step's *correct* value (a chain never builds on the learner's mistake).

Realism (issue #14): the world a problem describes
--------------------------------------------------
A problem must describe a world that could exist.  A template says what that world
is in ``Spec(world=World(...))`` (or a tuple of worlds when it compares two
setups), and :func:`question_bank.realism.check` reads it; the property test runs
every template over 200+ seeds through it (tests/unit/test_realism.py).  Fill in
what the scenario states, nothing more::

    World(model=m, gpu=gpu, precision="bf16",   # the model runs on this chip, math in bf16
          weights="int4", kv="bf16",            # storage formats, when they differ from ``precision``
          n_gpus=4, tp=4,                       # GPUs the model's copy is split over (TP × PP), as stated
          seq=8192, batch=16,                   # longest sequence, sequences resident at once
          holds=("weights", "kv"))              # what must fit in the GPUs' memory

The rules (each a named check in :mod:`question_bank.realism`):

* ``declared`` - every catalogue model or GPU the English text names is in a world;
* ``fits`` - what ``holds`` lists (``"weights"``, ``"kv"``, ``"train"`` = unsharded 16Φ,
  ``"zero1"``/``"zero2"``/``"zero3"`` over ``n_dp``) fits per GPU: in ``gpu``'s memory, or,
  with no GPU named, in the largest catalogue GPU's ("could live on a real GPU").  A
  problem that *asks* whether it fits sets ``fit_is_asked=True``;
* ``precision`` - ``gpu`` computes in ``precision``, and stores ``weights`` / ``kv``
  (int8 / int4 weight-only quantisation is storable anywhere; fp8 and bf16 are not);
* ``context`` - ``seq`` is within the model's trained context, unless
  ``extended_context=True`` and the problem says so;
* ``architecture`` - Korthikanti's 34sbh + 5as²b (``activation_bytes_layer``,
  ``activation_bytes_selective`` and its TP / TP + SP splits ``activation_bytes_layer_tp`` /
  ``_tp_sp``) only for a GPT-style model (``Model.gpt_style``: 4h GELU MLP, multi-head
  attention, dropout: GPT-3, ``models.MEGATRON_GPT``, a hypothetical one), the SwiGLU variant
  only for a gated one; ``kernels`` shown for the model are kernels its layer runs (``Model.kernels``);
* ``moe_active`` - for a mixture-of-experts model, FLOPs formulas use the active
  parameters and the text says "active"; memory formulas use the total.

``phi`` is the parameter count when the scenario names no catalogue model (a
"30B-parameter model").  A hypothetical model is a :class:`~question_bank.models.Model`
made up for the problem (``key="hypothetical"``).

How to give a template its teaching content (tests/unit/test_teaching.py walks every
template × several seeds):

* A number question gets the whiteboard derivation of its formula from the catalogue
  (``engine.formulas.Formula.worked``: decomposition, intermediate parts, formula,
  substitution, result, simplification, takeaway): write that content ONCE on the
  formula (see the docstring of engine/formulas/__init__.py), not in the template.
* What is particular to the question goes on its :class:`Ask`: ``explanation`` /
  ``explanation_zh`` (lines before the derivation: "sustained peak = 80 % × 989 TFLOPS =
  791.2 TFLOPS", "FLOPs = 2N³, bytes = 3N² × 4 B"), ``decomposition`` / ``simplification``
  (+ ``_zh``) to replace the formula's ("for a square fp32 GEMM 2N³ / (4 · 3N²) = N/6"),
  and ``takeaway`` / ``takeaway_zh`` to replace its takeaway.  Placeholders ``{name}`` name
  the formula's inputs, parts, ``result`` and the ask's ``extras``.
* A choice or expression question has no formula: its ``explanation`` (+ ``_zh``) IS the
  derivation (for a bound question: I* = peak ÷ bandwidth, then I against I*) and it
  must have a ``takeaway`` and ``takeaway_zh``.  ``card_formulas`` names the catalogue
  formulas its card shows (a bound question: ``("ridge_point",)``).
* Every text is in both languages; no internal source code (``R§``/``C§``) in user text:
  say where a fact comes from with ``@template(..., source="R§4.2, korthikanti2022")``,
  which the card shows readably (engine/sources.py).
"""

from __future__ import annotations

import contextvars
import math
import random
from dataclasses import field
from functools import cached_property, lru_cache, partial
from typing import Any, Callable, Mapping

from engine import convention_set as cs
from engine import expr as ex
from engine import formulas
from engine.choices import Choice
from engine.formulas import conventions
from engine.grading import (
    DEFAULT_CLOSE,
    DEFAULT_TOLERANCE,
    Approximation,
    ByConvention,
    Expected,
    Miss,
    display_number,
    distance,
)
from engine.messages import Twin, pick
from engine.records import NamedTuple, frozen, replace
from engine.units import UNIT_KINDS, fmt_quantity, lookup, round_sig

TOPICS: tuple[str, ...] = ("roofline", "memory", "communication", "mfu", "inference", "serving", "moe", "pipeline",
                           "parallelism",
                           "reliability", "cost", "concepts")
TOPIC_NAMES: dict[str, tuple[str, str]] = {
    "roofline": ("Roofline", "Roofline 模型"),
    "memory": ("Training memory", "训练显存"),
    "communication": ("Communication", "集合通信"),
    "mfu": ("MFU / HFU", "MFU / HFU"),
    "inference": ("Inference", "推理"),
    "serving": ("Serving", "推理服务"),
    "moe": ("Mixture of experts", "混合专家"),
    "pipeline": ("Pipeline bubbles", "流水线气泡"),
    "parallelism": ("Parallelism planning", "并行规划"),
    "reliability": ("Failures & checkpoints", "故障与检查点"),
    "cost": ("Cost & energy", "成本与能耗"),
    "concepts": ("Concepts", "概念判断"),
}


@frozen
class Ref:
    """The correct value of an earlier step of the same chain (0-based)."""

    step: int


# Significant figures a given is shown with: as few as show it exactly (4 at least), at most this many.
MAX_GIVEN_SIG = 7


@lru_cache(maxsize=4096)  # pure; a given is shown again for every table, card, language and check that reads it
def _exact(value: float, kind: str, unit: str | None) -> str:
    """``value`` with the fewest significant figures (4 to 7) that show it exactly; 4 if none does."""
    for sig in range(4, MAX_GIVEN_SIG + 1):
        if abs(round_sig(value, sig) - value) <= 1e-12 * abs(value):
            return fmt_quantity(value, kind, sig=sig, unit=unit)
    return fmt_quantity(value, kind, unit=unit)


class Given(NamedTuple):  # immutable; cheaper to define at import than a frozen dataclass
    """One given value, shown in the givens table: ``Peak dense bf16 | 989 TFLOPS``.

    Numbers are shown exactly (up to :data:`MAX_GIVEN_SIG` significant figures): a
    problem is computed from the values the learner sees: round a raw figure first
    (:func:`engine.units.round_sig`).  A text value has a Chinese twin ``value_zh``.
    """

    name: str
    label_en: str
    label_zh: str
    value: Any  # base units (float), a list of floats, or text
    kind: str = "count"
    unit: str | None = None  # unit to show it in (None: the unit a person would pick)
    value_zh: str = ""  # a text value in Chinese (default: the text itself: names, dtypes)
    origin: Any = None  # question_bank.kit.Origin: the catalogue entry and field the value is (None: the template's)

    @property
    def display(self) -> str:
        """The value as shown in English (numbers read the same in both languages)."""
        if isinstance(self.value, str):
            return self.value
        if isinstance(self.value, (list, tuple)):
            return ", ".join(_exact(float(v), self.kind, self.unit) for v in self.value)
        if UNIT_KINDS[self.kind].counted and not self.unit:
            v = float(self.value)
            return f"{int(v):,}" if v == int(v) and v < 1e15 else _exact(v, "count", None)
        return _exact(float(self.value), self.kind, self.unit)

    def display_in(self, lang: str = "en") -> str:
        """:attr:`display` in ``lang``: a text value in Chinese when it has a Chinese twin.  Chinese has no
        "params" unit: ``69B params`` is shown as ``69B`` (the label already says 参数量)."""
        shown = self.display
        return Twin(shown, self.value_zh or (shown.removesuffix(" params") if self.unit == "params" else shown)
                    ).text(lang)

    def label(self, lang: str = "en") -> str:
        return pick(lang, self.label_en, self.label_zh)


# Chinese leaves no space between two Chinese words (a template that builds "计算 " + "缩放平移" or "切分）" + " 训练"
# from parts would): removed from every Chinese text a problem shows (build_problem), as tests/unit/test_bank_text.py
# checks.  A space next to Latin text or a number stays ("在 H100 上", "一个 30B 参数").
_ZH_GAP = None  # spaces between two non-ASCII characters; _drop_gap keeps those not between Chinese ones


def _drop_gap(m) -> str:
    # Chinese (U+4E00-U+9FFF) or a closing bracket before, Chinese or an opening bracket after.  Tested here rather
    # than in the pattern: a character class of that range takes the re module over a millisecond to compile,
    # and the first problem waits for it (benchmarks/bench_startup.py).
    before, after = m.string[m.start() - 1], m.string[m.end()]
    if ("\u4e00" <= before <= "\u9fff" or before in "）」") and ("\u4e00" <= after <= "\u9fff" or after in "（「"):
        return ""
    return m.group()


def tidy_zh(text: str) -> str:
    """``text`` without the spaces between two Chinese characters (or a closing bracket and a Chinese one)."""
    global _ZH_GAP
    if _ZH_GAP is None:
        import re

        _ZH_GAP = re.compile(r"(?<=[^\x00-\x7f]) +(?=[^\x00-\x7f])")
    return _ZH_GAP.sub(_drop_gap, text) if text else text


def given(name: str, label_en: str, label_zh: str, value: Any, kind: str = "count", unit: str | None = None,
          *, value_zh: str = "", origin: Any = None) -> Given:
    return Given(name, label_en, label_zh, value, kind, unit, value_zh, origin)


# A whole-number answer (GPUs, sequences, micro-batches) is graded exactly, so it must be settled by
# whiteboard arithmetic: the quantity a formula rounds up or down is at least this far (relative) from a
# whole number - 3-significant-figure arithmetic lands on the right side - unless every input is a round
# number (at most 3 significant figures), where the arithmetic is exact.  README, "Grading".
WHOLE_MARGIN = 0.005


def rounding_margin(formula: str, inputs: Mapping[str, Any]) -> float:
    """How far, relative to itself, the quantity a ceil/floor formula rounds is from a whole number (0: whole)."""
    node = formulas.get(formula).node
    if not (isinstance(node, ex.Call) and node.fn in ("ceil", "floor")):
        raise ValueError(f"{formula} does not round to a whole number")
    q = ex.evaluate(node.args[0], inputs)
    return abs(q - round(q)) / abs(q) if q else 0.0


def settled_by_hand(formula: str, inputs: Mapping[str, Any]) -> bool:
    """True when a person computing ``formula`` at the whiteboard gets the exact whole number (see WHOLE_MARGIN)."""
    values = [float(v) for v in inputs.values() if not isinstance(v, (list, tuple, str))]
    if all(round_sig(v, 3) == v for v in values):
        return True
    return rounding_margin(formula, inputs) >= WHOLE_MARGIN


@frozen
class Ask:
    """One question: a number from a formula, a choice, or a symbolic expression."""

    prompt_en: str
    prompt_zh: str
    # number answers: an engine formula, its inputs (default: the givens), the unit asked for
    formula: str | None = None
    inputs: Mapping[str, Any] | None = None
    unit: str = ""
    integer: bool = False
    tolerance: float = DEFAULT_TOLERANCE
    close: float = DEFAULT_CLOSE
    extras: Mapping[str, Any] = field(default_factory=dict)  # values misconceptions may use (n_heads)
    # choice answers
    choices: tuple[Choice, ...] = ()
    answer: str = ""
    # expression answers: canonical text (in canonical names) and accepted spellings
    expression: str = ""
    aliases: Mapping[str, str] = field(default_factory=dict)
    # for choice / expression answers: why the answer is right (engine-made when possible);
    # for number answers: lines shown before the formula's worked solution (e.g. "dense = sparse / 2")
    explanation: tuple[str, ...] = ()
    explanation_zh: tuple[str, ...] = ()  # Chinese lines (default: the English ones)
    target_seconds: int | None = None
    roofline: Mapping[str, Any] | None = None  # {"peak_flops", "bandwidth", "intensity"} to draw
    # teaching content particular to this question (see the module docstring); None: the formula's
    decomposition: tuple[str, ...] | None = None
    decomposition_zh: tuple[str, ...] | None = None
    simplification: tuple[str, ...] | None = None
    simplification_zh: tuple[str, ...] | None = None
    takeaway: str = ""
    takeaway_zh: str = ""
    card_formulas: tuple[str, ...] = ()  # catalogue formulas a choice/expression question's card shows
    # layout answers (engine.layout): the constraints any correct TP/PP/DP layout meets
    layout: Any = None
    # number answers: the question asks a per-GPU figure, so "33 GB per GPU" (每卡) is read; None: as the formula
    # declares (engine.formulas.Formula.per_device).  Elsewhere that qualifier is refused with its reason (issue #29).
    per_gpu: bool | None = None

    @property
    def kind(self) -> str:
        if self.formula:
            return "number"
        if self.layout is not None:
            return "layout"
        if self.choices:
            return "choice"
        if self.expression:
            return "expression"
        raise ValueError("an Ask needs a formula, choices or an expression")


class World(NamedTuple):  # immutable; cheaper to define at import than a frozen dataclass
    """The structured facts of the world a problem describes, read by :func:`question_bank.realism.check`.

    Every field is optional: state what the scenario states (see the module docstring).
    """

    model: Any = None  # models.Model the scenario runs (a catalogue model or a hypothetical one)
    gpu: Any = None  # hardware.GPU it runs on
    precision: str | None = None  # the format the math runs in on ``gpu``
    weights: str | None = None  # weight storage format, when it differs from ``precision`` (int4 weight-only)
    kv: str | None = None  # KV-cache format, when the KV cache is held
    n_gpus: int = 1  # GPUs one copy of the model is split over (TP × PP)
    tp: int = 1  # tensor parallelism, as the problem states it
    pp: int = 1  # pipeline parallelism, as the problem states it
    n_dp: int = 1  # data-parallel group ZeRO shards over
    seq: int | None = None  # longest sequence the scenario runs (tokens)
    batch: int = 1  # sequences whose KV cache is held at once
    extended_context: bool = False  # the problem says the context is extended beyond the trained one
    holds: tuple[str, ...] = ()  # what must fit: "weights", "kv", "train", "zero1", "zero2", "zero3"
    fit_is_asked: bool = False  # the problem asks whether it fits: nothing is required to
    kernels: tuple[str, ...] = ()  # kernels shown as the model's own layer
    phi: float | None = None  # parameter count when no catalogue model is named
    row_ops: tuple[str, ...] = ()  # row-wise / elementwise ops the problem runs (norms, softmax): 16-bit or fp32
    judges_claim: bool = False  # the problem asks whether a reported figure is plausible: an implausible one is the point


class Spec(NamedTuple):  # immutable; cheaper to define at import than a frozen dataclass
    """What a template function returns."""

    asks: tuple[Ask, ...]
    givens: tuple[Given, ...] = ()
    scenario_en: str = ""  # shown once for a chain (and above a single question)
    scenario_zh: str = ""
    conventions_en: str = ""
    conventions_zh: str = ""
    world: World | tuple[World, ...] | None = None  # the facts the realism check reads (module docstring)


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

    def prompt(self, lang: str = "en") -> str:
        return pick(lang, self.prompt_en, self.prompt_zh)

    @cached_property
    def solution(self) -> tuple[str, ...]:
        """The worked solution in English, rendered when first read."""
        return self._solution() if callable(self._solution) else self._solution

    @cached_property
    def solution_zh(self) -> tuple[str, ...]:
        """The Chinese explanation lines, when they differ from :attr:`solution` (rendered when first read)."""
        return self._solution_zh() if callable(self._solution_zh) else self._solution_zh

    def solution_lines(self, lang: str = "en") -> tuple[str, ...]:
        """The worked solution in ``lang`` (formulas are the same in both languages)."""
        return pick(lang, self.solution, self.solution_zh or None)

    def takeaway_in(self, lang: str = "en") -> str:
        return Twin(self.takeaway, self.takeaway_zh).text(lang)

    @property
    def value(self) -> Any:
        return self.expected.value

    def to_dict(self, lang: str = "en") -> dict:
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
                "display": e.display,
                "tolerance": e.tolerance if measured else 0.0,
                "close": e.close if measured else 0.0,
                "choices": [c.key for c in e.choices],
            },
            "misconceptions": [{"key": m.key, "label": m.label, "value": m.value} for m in e.misses],
            "solution": list(self.solution_lines(lang)),
            "takeaway": self.takeaway_in(lang),
            "target_seconds": self.target_seconds,
        }


@frozen
class Problem:
    """A concrete problem: deterministic from (template, seed)."""

    template: "Template"
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

    @property
    def is_chain(self) -> bool:
        return len(self.steps) > 1

    @property
    def chosen_conventions(self) -> dict[str, str]:
        """The conventions the problem was drawn and is graded under, off their default (``{}``: the seeds')."""
        return dict(self.convention_set)

    def scenario(self, lang: str = "en") -> str:
        return pick(lang, self.scenario_en, self.scenario_zh)

    def conventions(self, lang: str = "en") -> str:
        return pick(lang, self.conventions_en, self.conventions_zh)

    def given_rows(self, lang: str = "en") -> list[tuple[str, str]]:
        """The givens table in ``lang``: (label, value as shown) per given."""
        return [(g.label(lang), g.display_in(lang)) for g in self.givens]

    def prompt(self, lang: str = "en") -> str:
        """The whole problem as text: scenario, givens, conventions, then each step's question."""
        lines = [self.scenario(lang)] if self.scenario(lang) else []
        if self.givens:
            lines += [f"  {label}: {shown}" for label, shown in self.given_rows(lang)]
        if self.conventions(lang):
            lines.append(self.conventions(lang))
        for s in self.steps:
            lines.append((f"{s.index + 1}. " if self.is_chain else "") + s.prompt(lang))
        return "\n".join(lines)

    def to_dict(self, lang: str = "en") -> dict:
        t = self.template
        d = {
            "template": t.id,
            "seed": self.seed,
            "topic": t.topic,
            "title": t.title,
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
        steps = [s.to_dict(lang) for s in self.steps]
        d["answer"] = steps[0]["answer"] if len(steps) == 1 else steps[-1]["answer"]
        d["solution"] = steps[0]["solution"] if len(steps) == 1 else [l for s in steps for l in s["solution"]]
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

    def title_in(self, lang: str = "en") -> str:
        return pick(lang, self.title, self.title_zh)

    def generate(self, seed: int, hardware: str | None = None, conventions: Mapping[str, str] | None = None,
                 model: str | None = None) -> Problem:
        """The problem of ``seed``; with ``hardware`` (an accelerator id, the learner's own among them) the
        templates that draw a GPU for it draw that chip where it suits the problem (question_bank.hardware.draw),
        and the problem records it; with ``model`` (a model id, the learner's own among them) the templates that
        draw a model draw that one where it suits the problem (question_bank.models.draw), recorded too.  ``conventions`` (engine.convention_set: key -> value) are the learner's:
        the template follows those it declares, where the spec allows them (:func:`engine.convention_set.applies`),
        states them and computes with them; the problem records the ones it used off their default.  The draw
        is the same under every convention set (only what is counted changes) unless it would not fit a real GPU
        under the chosen one: a template whose draw checks a fit checks it under the problem's convention."""
        chosen_set = {k: v for k, v in cs.canonical(conventions).items() if k in self.conventions}
        while True:
            token = _ACTIVE.set(chosen_set)
            refused: set[str] = set()
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
                    drew = chip is not None and chip.draws
                    drew_model = mine is not None and mine.draws
                problem = build_problem(self, int(seed), spec, chosen_set, refused)
            finally:
                _ACTIVE.reset(token)
            if not refused:
                break
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
_ACTIVE: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar("conventions", default={})


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
        REGISTRY[id] = Template(id, topic, title, tidy_zh(title_zh) or title, difficulty, target_seconds, fn, source,
                                tuple(conventions))
        return fn

    return deco


# --------------------------------------------------------------------------- #
# Resolving a Spec into a Problem


def _resolve(value: Any, done: list[Step]) -> Any:
    if isinstance(value, Ref):
        return done[value.step].value
    return value


def _pick(en: Any, zh: Any, lang: str) -> Any:
    """An ask's override in ``lang`` (the English one when it has no Chinese), or None."""
    return pick(lang, en, zh)


def _explained(ask: Ask) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A choice/expression question's solution in both languages: its explanation, then its takeaway."""
    en = tuple(ask.explanation) + ((formulas.TAKEAWAY["en"] + ask.takeaway,) if ask.takeaway else ())
    zh_lines = tuple(ask.explanation_zh or ask.explanation)
    zh = zh_lines + ((formulas.TAKEAWAY["zh"] + ask.takeaway_zh,) if ask.takeaway_zh else ())
    return en, zh


class _Derived:
    """A step's :meth:`Formula.derivation`, made when its solution is first read in one language and kept for the
    other (the figures and formula lines are the same in both)."""

    __slots__ = ("f", "inputs", "extras", "shown", "_made")

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
    """``lines`` as a problem shows them in ``lang``: Chinese without the spaces between Chinese words."""
    tidy = pick(lang, None, tidy_zh)
    return tuple(tidy(x) for x in lines) if tidy else lines


def _number_step(t: Template, i: int, ask: Ask, target: int, steps: list[Step],
                 given_values: Mapping[str, Any], chosen: Mapping[str, str] | None = None,
                 refused: set[str] | None = None, used: set[str] | None = None,
                 worlds: tuple[World, ...] = ()) -> Step:
    """A number from a catalogue formula: its value, misconceptions, approximations and worked solution."""
    f = formulas.get(ask.formula)
    # a quiet convention (issue #24) is the default unless the ask names it: a given value of the same name
    # (a weights_bytes' bytes_per_param) is not the convention
    raw = ask.inputs if ask.inputs is not None else {n: given_values[n] for n in f.input_names
                                                     if not f.input(n).quiet}
    inputs = {k: _resolve(v, steps) for k, v in raw.items()}
    for key in t.conventions:  # the learner's conventions (default: the seeds'), where the spec allows them
        value = (chosen or {}).get(key, cs.BY_KEY[key].default)
        sets = {n: v for n, v in cs.input_values(key, value).items()
                if n in f.input_names and f.input(n).quiet and n not in inputs}
        if not sets:
            continue
        if used is not None:
            used.add(key)
        if value == cs.BY_KEY[key].default:
            continue
        if cs.applies(key, value, inputs, worlds):
            inputs.update(sets)
        elif refused is not None:
            refused.add(key)
    value = f.evaluate(**inputs)
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
    misses = tuple(Miss(m.key, m.label, v, m.label_zh) for m, v in values if distinct(v))
    approximations = tuple(Approximation(m.key, m.label, m.label_zh, v, ex.render(m.node, f.symbols))
                           for m, v in values
                           if math.isfinite(v) and not distinct(v) and distance(v, value) > 1e-9)
    too_close = tuple(a.key for a in approximations)
    unit = ask.unit
    if unit and lookup(unit, f.unit) is None:
        raise ValueError(f"{t.id}: unit {unit!r} is not a unit of {f.unit}")
    exp = Expected("number", value, f.unit, unit, ask.tolerance, ask.close, misses, integer=ask.integer,
                   approximations=approximations, formula=ex.render(f.shown_node(inputs), f.symbols),
                   per_gpu=f.per_device if ask.per_gpu is None else ask.per_gpu,
                   conventions=_by_convention(f, inputs, worlds, ask))
    f.check_via(inputs)
    extras = {k: _resolve(v, steps) for k, v in ask.extras.items()}
    shown = display_number(value, f.unit, unit) if unit and not ask.integer else ""
    takeaway, takeaway_zh = ask.takeaway or f.takeaway, ask.takeaway_zh or f.takeaway_zh
    shown_values = f.shown_values(inputs, extras)
    derived = _Derived(f, inputs, extras, shown_values)
    solution, solution_zh = (partial(_worked, f, ask, inputs, extras, shown, lang, derived) for lang in ("en", "zh"))
    derivation = (len(ask.explanation) + len(f.parts)
                  + len(ask.decomposition if ask.decomposition is not None else f.decomposition)
                  + len(ask.simplification if ask.simplification is not None else f.simplification))
    return Step(i, ask.prompt_en, tidy_zh(ask.prompt_zh), exp, solution, target, f.name, inputs,
                ask.roofline, solution_zh, too_close,
                formulas.fill(takeaway, shown_values), tidy_zh(formulas.fill(takeaway_zh, shown_values)),
                derivation, (f.name,) + tuple(ask.card_formulas))


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


def _layout_step(t: Template, i: int, ask: Ask, target: int, steps: list[Step],
                 given_values: Mapping[str, Any]) -> Step:
    """A layout question: the preferred layout is the example answer, checked line by line."""
    example = ask.layout.preferred()
    if example is None:
        raise ValueError(f"{t.id}: no layout meets the constraints")
    exp = Expected("layout", example.text, layout=ask.layout)
    solution, solution_zh = (partial(_layout_solution, ask, example, lang) for lang in ("en", "zh"))
    return Step(i, ask.prompt_en, tidy_zh(ask.prompt_zh), exp, solution, target,
                _solution_zh=solution_zh, takeaway=ask.takeaway,
                takeaway_zh=tidy_zh(ask.takeaway_zh), derivation=len(ask.explanation),
                card_formulas=tuple(ask.card_formulas))


def _choice_step(t: Template, i: int, ask: Ask, target: int, steps: list[Step],
                 given_values: Mapping[str, Any]) -> Step:
    """A choice question: the answer must be one of the choices."""
    if ask.answer not in {c.key for c in ask.choices}:
        raise ValueError(f"{t.id}: answer {ask.answer!r} is not one of the choices")
    exp = Expected("choice", ask.answer, choices=ask.choices)
    en, zh = _explained(ask)
    return Step(i, ask.prompt_en, tidy_zh(ask.prompt_zh), exp, en, target, roofline=ask.roofline,
                _solution_zh=tuple(tidy_zh(x) for x in zh), takeaway=ask.takeaway,
                takeaway_zh=tidy_zh(ask.takeaway_zh),
                derivation=len(ask.explanation), card_formulas=tuple(ask.card_formulas))


def _expression_step(t: Template, i: int, ask: Ask, target: int, steps: list[Step],
                     given_values: Mapping[str, Any]) -> Step:
    """An expression question: the canonical expression and its accepted spellings."""
    exp = Expected("expression", ask.expression, aliases=tuple(ask.aliases.items()))
    en, zh = _explained(ask)
    return Step(i, ask.prompt_en, tidy_zh(ask.prompt_zh), exp, en, target,
                _solution_zh=tuple(tidy_zh(x) for x in zh), takeaway=ask.takeaway,
                takeaway_zh=tidy_zh(ask.takeaway_zh),
                derivation=len(ask.explanation), card_formulas=tuple(ask.card_formulas))


# How an Ask of each answer kind (engine.kinds) becomes a Step: one entry per kind.
STEP_BUILDERS: dict[str, Callable[..., Step]] = {
    "number": _number_step, "layout": _layout_step, "choice": _choice_step, "expression": _expression_step,
}


def stated_conventions(t: Template, used: set[str], chosen: Mapping[str, str], lang: str) -> str:
    """What a problem of ``t`` says of the choosable conventions it counts with (``used``), under ``chosen``."""
    return pick(lang, " ", "").join(cs.BY_KEY[k].statement(chosen.get(k, cs.BY_KEY[k].default), lang)
                                    for k in t.conventions if k in used)


def build_problem(t: Template, seed: int, spec: Spec, chosen: Mapping[str, str] | None = None,
                  refused: set[str] | None = None) -> Problem:
    """``spec`` as a problem; ``chosen``: the conventions it follows off their default (a key the spec does not
    allow at one of its steps is added to ``refused``: :meth:`Template.generate` draws it again without)."""
    chosen = dict(chosen or {})
    given_values = {g.name: g.value for g in spec.givens}
    steps: list[Step] = []
    used: set[str] = set()  # the conventions some step of this problem counts with
    worlds = () if spec.world is None else (spec.world,) if isinstance(spec.world, World) else tuple(spec.world)
    per_step = max(10, t.target_seconds // max(1, len(spec.asks)))
    for i, ask in enumerate(spec.asks):
        target = ask.target_seconds or per_step
        if ask.kind == "number":
            steps.append(_number_step(t, i, ask, target, steps, given_values, chosen, refused, used, worlds))
        else:
            steps.append(STEP_BUILDERS[ask.kind](t, i, ask, target, steps, given_values))
    givens = tuple(g._replace(label_zh=tidy_zh(g.label_zh), value_zh=tidy_zh(g.value_zh)) for g in spec.givens)
    conventions_en, conventions_zh = spec.conventions_en, spec.conventions_zh
    if used:  # the problem states the conventions it counts with (issue #24 item 2)
        conventions_en = " ".join(x for x in (conventions_en, stated_conventions(t, used, chosen, "en")) if x)
        conventions_zh = conventions_zh + stated_conventions(t, used, chosen, "zh")
    return Problem(t, seed, givens, tuple(steps), spec.scenario_en, tidy_zh(spec.scenario_zh),
                   conventions_en, tidy_zh(conventions_zh), worlds,
                   convention_set=tuple((k, v) for k, v in cs.canonical(chosen).items() if k in used))
