"""What a template returns (Spec): its givens, its questions (Ask) and the world it describes.

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

Realism: the world a problem describes
-------------------------------------
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

from collections.abc import Mapping
from dataclasses import field
from functools import lru_cache
from typing import Any

from engine import expr as ex
from engine import formulas
from engine.choices import Choice
from engine.count_nouns import NotCounted, Noun, counted, spelled
from engine.formulas import inputs
from engine.grading import DEFAULT_CLOSE, DEFAULT_TOLERANCE, KindName
from engine.langs import EN
from engine.messages import pick
from engine.records import NamedTuple, frozen
from engine.typography import zh_typeset
from engine.units import UNIT_KINDS, fmt_quantity, round_sig


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
    # What a count given counts (engine.count_nouns: a Noun, or NotCounted for a size or a factor).  A template
    # leaves it None: the problem takes it from the formula input the given feeds (:func:`given_counts`), and a
    # template states it only where the given's name means two things and no formula of its own binds it.
    counts: Any = None

    @property
    def noun(self) -> Noun | None:
        """The thing a count given counts (``512 GPUs``), or None."""
        return self.counts if isinstance(self.counts, Noun) else None

    @property
    def display(self) -> str:
        """The value as shown in English: a count with its noun (``512 GPUs``, ``69B params``)."""
        return self.display_in(EN)

    def _shown_noun(self) -> Noun | None:
        """The noun written after the number: the given's own, or the one its unit names (``params``, ``tokens``)."""
        if isinstance(self.value, (str, list, tuple)) or not UNIT_KINDS[self.kind].counted:
            return None
        return spelled(self.unit) if self.unit else self.noun

    def display_in(self, lang: str = EN) -> str:
        """The value as shown in ``lang``: a text value in Chinese when it has a Chinese twin; a count with its
        noun in both languages, as an answer's is (``512 GPUs`` / ``512 个 GPU``, ``69B params`` / ``69B 个参数``:
        engine.count_nouns.counted)."""
        if isinstance(self.value, str):
            return _shown_in(lang, self.value, self.value_zh or self.value)
        if isinstance(self.value, (list, tuple)):
            shown = ", ".join(_exact(float(v), self.kind, self.unit) for v in self.value)
            return _shown_in(lang, shown, self.value_zh or shown)
        noun, v = self._shown_noun(), float(self.value)
        if UNIT_KINDS[self.kind].counted and (noun is not None or not self.unit):
            # 69B, 2.1 × 10¹³ as the unit's own figure shows them; a whole count below 10¹⁵ with its thousands
            number = _exact(v, self.kind, self.unit).removesuffix(f" {self.unit}") if self.unit \
                else f"{int(v):,}" if v == int(v) and v < 1e15 else _exact(v, "count", None)
            en, zh = counted(number, noun) if noun is not None else (number, number)
        else:
            en = zh = _exact(v, self.kind, self.unit)
        return _shown_in(lang, en, self.value_zh or zh)

    def label(self, lang: str = EN) -> str:
        return pick(lang, self.label_en, self.label_zh)


def _shown_in(lang: str, en: str, zh: str) -> str:
    """``Twin(en, zh_typeset(zh)).text(lang)``, typesetting the Chinese only when it is the one shown: a given is
    shown in one language at a time, and typesetting is most of the cost of showing it."""
    return (zh_typeset(zh) or en) if pick(lang, False, True) else en


def given(name: str, label_en: str, label_zh: str, value: Any, kind: str = "count", unit: str | None = None,
          *, value_zh: str = "", origin: Any = None, counts: Noun | NotCounted | None = None) -> Given:
    return Given(name, label_en, label_zh, value, kind, unit, value_zh, origin, counts)


@lru_cache(maxsize=1)
def _declared_counts() -> dict[str, frozenset]:
    """Input name -> what the catalogue's declarations of that name count (one value unless the name means two
    things: ``m`` is a GEMM's rows and a number of micro-batches)."""
    out: dict[str, set] = {}
    for f in formulas.CATALOGUE:
        for i in f.inputs:
            if i.kind == "count":
                out.setdefault(i.name, set()).add(i.counted)
    return {k: frozenset(v) for k, v in out.items()}


def given_counts(g: Given, taken: tuple[formulas.Formula, ...]) -> Noun | NotCounted | None:
    """What the count given ``g`` counts: as the template states it, else as the input it feeds in one of the
    problem's formulas ``taken`` declares (engine/formulas/inputs.py), else by its name (``SHOWN_COUNTS`` there,
    or every declaration of the name, where they agree); None when no one says (tests/unit/test_count_nouns.py
    checks every count given of the bank says)."""
    if g.counts is not None:
        return g.counts
    if isinstance(g.value, str) or not UNIT_KINDS[g.kind].counted:
        return None
    for f in taken:
        if g.name in f.input_names and f.input(g.name).kind == "count":
            return f.input(g.name).counted
    if g.name in inputs.SHOWN_COUNTS:
        return inputs.SHOWN_COUNTS[g.name]
    declared = _declared_counts().get(g.name, frozenset())
    return next(iter(declared)) if len(declared) == 1 else None


# A whole-number answer (GPUs, sequences, micro-batches) is graded exactly, so it must be settled by
# whiteboard arithmetic: the quantity a formula rounds up or down is at least this far (relative) from a
# whole number - 3-significant-figure arithmetic lands on the right side - unless every input is a round
# number (at most 3 significant figures), where the arithmetic is exact.  docs/answering.md, "Numbers".
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
    # declares (engine.formulas.Formula.per_device).  Elsewhere that qualifier is refused with its reason.
    per_gpu: bool | None = None

    @property
    def kind(self) -> str:
        if self.formula:
            return KindName.NUMBER
        if self.layout is not None:
            return KindName.LAYOUT
        if self.choices:
            return KindName.CHOICE
        if self.expression:
            return KindName.EXPRESSION
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
