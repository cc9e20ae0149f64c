"""The formula catalogue: every formula of ``shared/spec/formulas.md``, defined once.

A :class:`Formula` is a name, typed inputs, one expression in the safe language
of :mod:`engine.expr`, and the wrong formulas people typically use instead.
That single definition serves every use:

* numeric evaluation (:meth:`Formula.evaluate`) - no sympy involved;
* the worked solution (:meth:`Formula.worked`): the whiteboard derivation - where
  each factor comes from, the intermediate values with their units, the formula,
  the numbers substituted, the result, the simplification, one takeaway - in
  English or Chinese; :meth:`Formula.solution` is its bare core (formula,
  substitution, result);
* misconception values (:meth:`Formula.misconception_values`) for the grader;
* the formula card (``question_bank.cards``): symbols, decomposition, a worked
  example with round numbers, the typical mistakes, the readable source;
* a symbolic form (:meth:`Formula.symbolic`), built lazily with sympy.

Adding a formula is one entry in :data:`CATALOGUE`.

How to give a formula its teaching content (keyword arguments of :class:`Formula`;
tests/unit/test_teaching.py checks every formula a template uses):

* ``decomposition`` / ``decomposition_zh``: one or two lines saying where each factor
  comes from, in words and symbols ("2Φ bf16 weights + 2Φ bf16 gradients + 12Φ fp32
  AdamW states = 16Φ").  ``{name}`` is replaced by the value of an input, a part or
  ``result``, shown with its unit ("Φ = {phi}" -> "Φ = 7 × 10¹⁰").
* ``parts``: named intermediate values, each a :class:`Part` (name, shown symbol, an
  expression of the inputs and earlier parts, its unit kind, a label in both languages).
  Each is printed as ``KV/token = 2 × bytes × L × n_kv × d_head = 2 × 2 × 80 × 8 × 128 =
  327680 B (327.7 kB)  (K and V of every layer)`` before the formula.  ``via`` rewrites the
  formula with the parts ("kv_token*batch*seq"); its numbers are shown after the
  substitution, and build_problem checks it gives the same value.
* ``simplification`` / ``simplification_zh``: the limit or closed form a strong candidate
  mentions (2(N−1)/N → 2 for large N), placeholders as above.
* ``takeaway`` / ``takeaway_zh``: ONE line, what the interviewer wants to hear.
* ``example``: round-number inputs for the card's worked example (base units).
* ``refs``: readable sources beyond the seed sections of ``source``: keys of
  :data:`engine.sources.SOURCES`, comma-separated ("rajbhandari2020").  ``source``
  keeps the internal seed codes (R§/C§), which are never shown: users see
  :func:`engine.sources.cite` (:attr:`Formula.readable_source`).
* ``Input.meaning_zh``: the Chinese meaning of each input (shown on the card).
A template can override the decomposition, simplification and takeaway per question
(``question_bank.base.Ask``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping, NamedTuple

from . import expr as ex
from .messages import Said, join, say
from .units import DTYPE_BYTES, KINDS, binary_size, fmt_number, fmt_quantity, fmt_whole

# How inputs are written in formulas shown to people.
GREEK = {"phi": "Φ", "alpha": "α", "beta": "β"}


# The Chinese meaning of an input, by its English meaning (an Input may also carry its own meaning_zh).
INPUT_MEANING_ZH = {
    "parameter count (70B = 7e10)": "参数量（70B = 7e10）",
    "GPUs in the data-parallel group": "数据并行组中的 GPU 数",
    "bytes per parameter (fp16 = 2)": "每个参数的字节数（fp16 = 2）",
    "memory to hold": "需要容纳的显存",
    "memory of one GPU": "单张 GPU 的显存",
    "sequence length (tokens)": "序列长度（token 数）",
    "micro-batch size (sequences)": "微批次大小（序列数）",
    "hidden size": "隐藏维度",
    "attention heads": "注意力头数",
    "message (tensor) size in bytes": "消息（张量）大小，字节",
    "GPUs taking part": "参与通信的 GPU 数",
    "latency per message step (s)": "每步消息的延迟（秒）",
    "link bandwidth (B/s)": "链路带宽（B/s）",
    "transformer layers": "Transformer 层数",
    "head dimension": "每个头的维度",
    "measured training throughput (tok/s)": "实测训练吞吐（tok/s）",
    "number of GPUs": "GPU 数",
    "peak dense FLOP/s of one GPU": "单张 GPU 的稠密峰值算力（FLOP/s）",
    "number of tokens": "token 数",
    "model FLOPs utilisation": "模型算力利用率",
    "batch size (sequences)": "batch 大小（序列数）",
    "key/value heads": "KV 头数",
    "bytes per element (fp16 = 2)": "每个元素的字节数（fp16 = 2）",
    "memory bandwidth (B/s)": "显存带宽（B/s）",
    "bytes of weights read per step": "每步读取的权重字节数",
    "KV cache bytes read per step": "每步读取的 KV Cache 字节数",
    "KV cache bytes of one sequence": "一条序列的 KV Cache 字节数",
    "sequences decoded together": "一起 decode 的序列数",
    "floating-point operations": "浮点运算次数",
    "bytes moved to/from memory": "显存读写字节数",
    "arithmetic intensity of the kernel": "算子的算术强度",
    "rows of A and C": "A 和 C 的行数",
    "columns of B and C": "B 和 C 的列数",
    "inner dimension": "内积维度",
    "query heads": "Query 头数",
    "FFN (MLP) inner size": "FFN（MLP）中间维度",
    "vocabulary size": "词表大小",
    "pipeline stages": "流水线阶段数",
    "micro-batches per step": "每步的微批次数",
    "virtual stages per GPU": "每张 GPU 的虚拟阶段数",
    "forward time of each stage": "各阶段的前向耗时",
    "memory of the GPU(s)": "GPU 显存",
    "bytes of the weights": "权重字节数",
    "KV cache bytes of one full sequence": "一条完整序列的 KV Cache 字节数",
    "largest acceptable bubble (share of total time)": "可接受的最大气泡率（占总时间的比例）",
    "activation memory of one layer": "一层的激活值显存",
    "tensor-parallel GPUs": "张量并行的 GPU 数",
    "tensor-parallel degree": "张量并行度",
    "bytes per weight / gradient value (bf16 = 2)": "每个权重 / 梯度值的字节数（bf16 = 2）",
    "sequences per optimizer step (all GPUs)": "每个优化器步的序列数（所有 GPU）",
    "wall-clock time of one training step": "一个训练步的墙钟时间",
}


class Input(NamedTuple):  # immutable; a NamedTuple is cheaper to define at import than a dataclass
    name: str
    kind: str  # a key of engine.units.KINDS, or "list:time" for a list of times
    meaning: str
    symbol: str = ""
    meaning_zh: str = ""  # shown on the formula card in Chinese (default: the English meaning)

    def meaning_in(self, lang: str = "en") -> str:
        if lang != "zh":
            return self.meaning
        return self.meaning_zh or INPUT_MEANING_ZH.get(self.meaning, self.meaning)

    @property
    def shown(self) -> str:
        return self.symbol or GREEK.get(self.name, self.name)

    @property
    def is_list(self) -> bool:
        return self.kind.startswith("list:")

    @property
    def base_kind(self) -> str:
        return self.kind.split(":", 1)[1] if self.is_list else self.kind

    def read(self, text: str) -> tuple[ex.Value, tuple[Said, ...]]:
        """A value typed as text (``3.35TB/s``, ``70B``, ``fp16``, ``10ms,12ms,8ms``) in base units.

        Returns the value and notes on how it was read (:mod:`engine.messages` data: ``str()`` is
        the English, ``.text("zh")`` the Chinese); raises :class:`FormulaError` naming this input.
        A bare number is in base units; values are never negative.
        """
        from .answers import Unreadable, parse_list, parse_quantity

        kind = self.base_kind

        def refuse(reason: Said) -> FormulaError:
            return FormulaError(say("formula.input", name=self.name, typed=text, reason=reason))

        def note(n: Said) -> Said:
            return say("note.input", name=self.name, note=n)

        if self.is_list:
            r = parse_list(text, kind)
            if isinstance(r, Unreadable):
                raise refuse(r.said)
            if any(v < 0 for v in r):
                raise refuse(say("formula.negative", name=self.name))
            return r, ()
        if kind == "bytes" and text.strip().lower() in DTYPE_BYTES:
            size = DTYPE_BYTES[text.strip().lower()]
            return size, (note(say("note.dtype_bytes", dtype=text.strip(), size=fmt_number(size))),)
        if kind == "bits" and text.strip().lower() in DTYPE_BYTES:  # scale_bits=fp16
            size = 8 * DTYPE_BYTES[text.strip().lower()]
            return size, (note(say("note.dtype_bits", dtype=text.strip(), size=fmt_number(size))),)
        p = parse_quantity(text, kind)
        if isinstance(p, Unreadable):
            raise refuse(p.said)
        if p.value < 0:
            raise refuse(say("formula.negative", name=self.name))
        notes = tuple(note(n) for n in p.said)
        if p.bare and kind not in ("count", "ratio") and p.value != 0:
            notes += (note(say("note.bare_base", unit=KINDS[kind])),)
        return p.value, notes


@dataclass(frozen=True)
class Misconception:
    """A wrong formula people use instead; named when an answer matches it."""

    key: str
    label: str  # "forgot the factor 2": reads after "Looks like you ..."
    expr: str  # may use names beyond the formula's inputs (given by the problem)
    label_zh: str = ""  # "漏了因子 2": reads after "看起来你…" (tests/unit/test_formulas.py: every one has it)

    @cached_property
    def node(self) -> ex.Node:
        return _parse_trusted(self.expr)


class Part(NamedTuple):
    """A named intermediate value of a worked solution: ``KV/token = 2 × bytes × L × n_kv × d_head``."""

    name: str  # identifier, usable by later parts and by Formula.via
    symbol: str  # how it is written: "KV/token"
    expr: str  # of the formula's inputs and earlier parts
    kind: str  # unit kind of the value (engine.units.KINDS)
    label: str  # what it is: "K and V of every layer"
    label_zh: str = ""

    def label_in(self, lang: str = "en") -> str:
        return self.label_zh if lang == "zh" and self.label_zh else self.label


TAKEAWAY = {"en": "Takeaway: ", "zh": "面试要点："}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z_0-9]*)\}")


def fill(text: str, shown: Mapping[str, str]) -> str:
    """``{name}`` -> ``shown[name]``; other braces are left alone."""
    return _PLACEHOLDER.sub(lambda m: shown.get(m.group(1), m.group(0)), text)


@dataclass(frozen=True)
class Formula:
    """One formula of the catalogue, defined once (see the module docstring)."""

    name: str
    inputs: tuple[Input, ...]
    expr: str
    unit: str  # kind of the result (see engine.units.KINDS)
    meaning: str
    source: str
    misconceptions: tuple[Misconception, ...] = field(default=())
    result_symbol: str = ""
    # teaching content (see the module docstring): keyword arguments, all optional
    refs: str = ""
    decomposition: tuple[str, ...] = ()
    decomposition_zh: tuple[str, ...] = ()
    parts: tuple[Part, ...] = ()
    via: str = ""
    simplification: tuple[str, ...] = ()
    simplification_zh: tuple[str, ...] = ()
    takeaway: str = ""
    takeaway_zh: str = ""
    example: Mapping[str, Any] | None = field(default=None, compare=False)
    meaning_zh: str = ""

    def __post_init__(self) -> None:
        if self.unit not in KINDS:
            raise ValueError(f"{self.name}: unknown unit kind {self.unit!r}")
        for p in self.parts:
            if p.kind not in KINDS:
                raise ValueError(f"{self.name}: part {p.name}: unknown unit kind {p.kind!r}")

    @cached_property
    def node(self) -> ex.Node:
        """The parsed expression, built on first use (keeps ``import engine.formulas`` fast).

        Its names must be exactly the inputs (tests/unit/test_formulas.py checks every formula).
        """
        node = _parse_trusted(self.expr)
        used, declared = ex.names_in(node), {i.name for i in self.inputs}
        if used != declared:
            raise ValueError(f"{self.name}: expression uses {sorted(used)}, inputs are {sorted(declared)}")
        return node

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.inputs)

    @property
    def symbols(self) -> dict[str, str]:
        return {i.name: i.shown for i in self.inputs}

    def input(self, name: str) -> Input:
        for i in self.inputs:
            if i.name == name:
                return i
        raise KeyError(name)

    def check_inputs(self, values: Mapping[str, object]) -> None:
        missing = [n for n in self.input_names if n not in values]
        if missing:
            raise FormulaError(say("formula.missing_many" if len(missing) > 1 else "formula.missing_one",
                                   formula=self.name, names=", ".join(missing), inputs=", ".join(self.input_names)))

    def read_inputs(self, texts: Mapping[str, str]) -> tuple[dict[str, ex.Value], tuple[Said, ...]]:
        """Every input typed as text -> (values in base units, notes on how they were read: see :meth:`Input.read`).

        Raises :class:`FormulaError` for an unknown, missing or unreadable input.
        """
        unknown = [k for k in texts if k not in self.input_names]
        if unknown:
            raise FormulaError(say("formula.unknown_input", formula=self.name, name=unknown[0],
                                   inputs=", ".join(self.input_names)))
        self.check_inputs(texts)
        values: dict[str, ex.Value] = {}
        notes: list[Said] = []
        for i in self.inputs:
            try:
                values[i.name], n = i.read(texts[i.name])
            except FormulaError as e:
                raise FormulaError(say("formula.in", formula=self.name, reason=e.said)) from None
            notes += n
        return values, tuple(notes)

    def evaluate(self, **values: ex.Value) -> float:
        """The value in base units of :attr:`unit`. Extra keys are ignored."""
        self.check_inputs(values)
        try:
            return ex.evaluate(self.node, values)
        except ex.ExprError as e:
            raise FormulaError(say("formula.in", formula=self.name, reason=e.said)) from None

    def formula_text(self) -> str:
        """``zero2_bytes = 2 × Φ + 14 × Φ / N_dp``"""
        return f"{self.result_symbol or self.name} = {ex.render(self.node, self.symbols)}"

    def solution(self, **values: ex.Value) -> list[str]:
        """The worked solution: formula, substitution, result with its unit."""
        v = self.evaluate(**values)
        return [
            self.formula_text(),
            "  = " + ex.render(self.node, self.symbols, values),
            "  = " + result_text(v, self.unit),
        ]

    # ---------------------------------------------------------------- teaching
    @property
    def shown_symbol(self) -> str:
        return self.result_symbol or self.name

    def meaning_in(self, lang: str = "en") -> str:
        return self.meaning_zh if lang == "zh" and self.meaning_zh else self.meaning

    def readable_source(self, lang: str = "en") -> str:
        """Where this formula comes from, in words (never the internal R§/C§ codes)."""
        from .sources import cite

        return cite(self.source, self.refs, lang=lang)

    @cached_property
    def part_nodes(self) -> tuple[tuple[Part, ex.Node], ...]:
        return tuple((p, _parse_trusted(p.expr)) for p in self.parts)

    @cached_property
    def via_node(self) -> ex.Node | None:
        return _parse_trusted(self.via) if self.via else None

    def part_values(self, values: Mapping[str, ex.Value]) -> dict[str, float]:
        """The value of every part (base units of its kind), in order."""
        env: dict[str, ex.Value] = dict(values)
        out: dict[str, float] = {}
        for p, node in self.part_nodes:
            try:
                out[p.name] = env[p.name] = ex.evaluate(node, env)
            except ex.ExprError as e:
                raise FormulaError(say("formula.part", formula=self.name, part=p.name, reason=e.said)) from None
        return out

    def shown_values(self, values: Mapping[str, ex.Value], extras: Mapping[str, Any] | None = None
                     ) -> dict[str, str]:
        """How each input, part and the result reads in text (placeholders of teaching lines)."""
        shown: dict[str, str] = {}
        for k, v in (extras or {}).items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                shown[k] = fmt_number(float(v))
            elif isinstance(v, str):
                shown[k] = v
        for i in self.inputs:
            v = values.get(i.name)
            if v is None:
                continue
            if isinstance(v, (list, tuple)):
                shown[i.name] = ", ".join(fmt_quantity(float(x), i.base_kind) for x in v)
            else:
                shown[i.name] = fmt_quantity(float(v), i.base_kind)
        kinds = {p.name: p.kind for p in self.parts}
        for k, v in self.part_values(values).items():
            shown[k] = fmt_quantity(v, kinds[k])
        shown["result"] = fmt_quantity(self.evaluate(**values), self.unit)
        return shown

    def worked(self, values: Mapping[str, ex.Value], lang: str = "en", *,
               decomposition: tuple[str, ...] | None = None, simplification: tuple[str, ...] | None = None,
               takeaway: str | None = None, extras: Mapping[str, Any] | None = None, also: str = "") -> list[str]:
        """The whiteboard derivation in ``lang``: decomposition, intermediate parts, formula, substitution
        (then the same numbers grouped by the parts), result, simplification, takeaway.

        The overrides (a template's own decomposition, simplification or takeaway) replace the
        formula's; ``extras`` are further values their placeholders may name.  The formula line and
        the substitution line right after it are those of :meth:`solution`.  ``also`` is the result
        in the unit the question asks for (``989 TFLOPS``), shown after the result unless it is in it.
        """
        zh = lang == "zh"
        values = dict(values)
        shown = self.shown_values(values, extras)
        dec = decomposition if decomposition is not None else (
            self.decomposition_zh if zh and self.decomposition_zh else self.decomposition)
        simp = simplification if simplification is not None else (
            self.simplification_zh if zh and self.simplification_zh else self.simplification)
        take = takeaway if takeaway is not None else (self.takeaway_zh if zh and self.takeaway_zh else self.takeaway)
        lines = [fill(d, shown) for d in dec]
        parts = self.part_values(values)
        symbols = {**self.symbols, **{p.name: p.symbol for p in self.parts}}
        env: dict[str, ex.Value] = dict(values)
        for p, node in self.part_nodes:
            written = ex.render(node, symbols)
            lead = f"  {p.symbol}" + (f" = {written}" if written != p.symbol else "")
            subst = ex.render(node, symbols, env)
            if subst != written:
                lead += f" = {subst}"
            lead += f" = {result_text(parts[p.name], p.kind)}"
            lines.append(f"{lead}（{p.label_in(lang)}）" if zh else f"{lead}  ({p.label_in(lang)})")
            env[p.name] = parts[p.name]
        core = self.solution(**values)
        lines += core[:2]
        if self.via_node is not None:
            lines.append("  = " + ex.render(self.via_node, symbols, env))
        lines.append(core[2])
        if also and also not in core[2]:
            lines.append(f"  = {also}")
        lines += [fill(x, shown) for x in simp]
        if take:
            lines.append(TAKEAWAY[lang if zh else "en"] + fill(take, shown))
        return lines

    def check_via(self, values: Mapping[str, ex.Value]) -> None:
        """Raise ValueError unless ``via`` (the formula rewritten with its parts) gives the formula's value."""
        if self.via_node is None:
            return
        env = {**values, **self.part_values(values)}
        a, b = ex.evaluate(self.via_node, env), self.evaluate(**values)
        if abs(a - b) > 1e-9 * max(abs(a), abs(b), 1e-300):
            raise ValueError(f"{self.name}: via {self.via!r} gives {a}, the formula {b}")

    def misconception_values(self, **values: ex.Value) -> list[tuple[Misconception, float]]:
        """Each misconception that applies to these values, with the wrong answer it gives."""
        out = []
        for m in self.misconceptions:
            if not ex.names_in(m.node) <= set(values):
                continue  # needs a value this problem does not give (e.g. n_heads)
            try:
                out.append((m, ex.evaluate(m.node, values)))
            except ex.ExprError:
                continue
        return out

    def symbolic(self):
        """The sympy form (imports sympy on first use)."""
        return ex.to_sympy(self.node)


class FormulaError(ValueError):
    """A formula cannot be evaluated with the given inputs.

    ``err.said`` is the reason as :mod:`engine.messages` data (``err.text("zh")`` words it in Chinese);
    ``str(err)`` is the English.
    """

    def __init__(self, said: Said) -> None:
        self.said = said
        super().__init__(said.text())

    def text(self, lang: str = "en") -> str:
        return self.said.text(lang)


def result_text(value: float, kind: str) -> str:
    """``1.12 × 10¹² B (1.12 TB)``: base units, then the unit a person would use.

    A whole number is shown exactly, with its binary size where that is round:
    ``131,072 B (128 KiB)``, not ``131100 B (131.1 kB)`` (engine.units.fmt_whole).
    """
    base = KINDS[kind]
    if kind in ("ratio",):
        return f"{fmt_number(value)} ({fmt_quantity(value, kind)})"
    if kind == "count":
        return fmt_whole(value)
    human = binary_size(value) if kind == "bytes" else ""
    human = human or fmt_quantity(value, kind)
    plain = f"{fmt_whole(value)} {base}"
    return plain if human == plain else f"{plain} ({human})"


def _parse_trusted(text: str) -> ex.Node:
    """Formulas are our own text, but they go through the same checked parser."""
    import re

    names = {n: n for n in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text) if n not in ex.FUNCTIONS}
    return ex.parse(text, names, functions=ex.FUNCTIONS, max_len=1000)


# --------------------------------------------------------------------------- #
# Inputs used by several formulas

PHI = Input("phi", "count", "parameter count (70B = 7e10)")
N_DP = Input("n_dp", "count", "GPUs in the data-parallel group", "N_dp")
S = Input("s", "count", "sequence length (tokens)")
B = Input("b", "count", "micro-batch size (sequences)")
H = Input("h", "count", "hidden size")
A = Input("a", "count", "attention heads")
M_BYTES = Input("m", "bytes", "message (tensor) size in bytes", "M")
N_RANKS = Input("n", "count", "GPUs taking part", "N")
ALPHA = Input("alpha", "time", "latency per message step (s)")
BETA = Input("beta", "bandwidth", "link bandwidth (B/s)")
PEAK = Input("peak_flops", "flop_rate", "peak dense FLOP/s of one GPU", "F_peak")
BW = Input("bandwidth", "bandwidth", "memory bandwidth (B/s)", "BW")
BPE = Input("bytes_per_elem", "bytes", "bytes per element (fp16 = 2)", "bytes")
TPS = Input("tokens_per_s", "tok_rate", "measured training throughput (tok/s)", "tok/s")
N_GPUS = Input("n_gpus", "count", "number of GPUs", "N")
TOKENS = Input("tokens", "count", "number of tokens", "D")
LAYERS = Input("layers", "count", "transformer layers", "L")
N_KV = Input("n_kv_heads", "count", "key/value heads", "n_kv")
D_HEAD = Input("d_head", "count", "head dimension", "d_head")
P_STAGES = Input("p", "count", "pipeline stages", "P")
M_MICRO = Input("m", "count", "micro-batches per step", "m")


# The activation memory of a Llama-style layer, counted as Korthikanti et al. count a GPT layer (their §4.1:
# 34sbh + 5as²b = attention 11sbh + 5as²b, MLP 19sbh, two LayerNorms 4sbh), bf16 (2 B per value), no
# FlashAttention, no recomputation, no tensor/sequence parallelism.  h_kv = h·n_kv/a is the K/V width.
#   attention: QKV input 2sbh + Q 2sbh + K 2sb·h_kv + V 2sb·h_kv + softmax output 2as²b (no dropout: the same
#              tensor feeds the ·V matmul) + output-projection input 2sbh     = 6sbh + 4sb·h_kv + 2as²b
#              (GPT: + dropout mask as²b + dropout output 2as²b + attention-dropout mask sbh)
#   MLP:       gate/up input 2sbh + gate and up outputs 4sbf (SwiGLU's backward needs both)
#              + down-projection input 2sbf                                     = 2sbh + 6sbf
#              (GPT: 2sbh + GELU input 8sbh + GELU output 8sbh + dropout mask sbh = 19sbh)
#   norms:     two RMSNorm inputs                                               = 4sbh
#   total:     12sbh + 4sb·h·n_kv/a + 6sbf + 2as²b   (GPT-style: 34sbh + 5as²b)
SWIGLU_LAYER_MEANING = (
    "activation memory of one Llama-style layer (RMSNorm, SwiGLU MLP of inner size f, no dropout, no biases), bf16, "
    "no recomputation: attention 6sbh + 4sb·h·n_kv/a (Q, K, V at their widths) + 2as²b (softmax output, no dropout "
    "copy or masks); MLP 2sbh + 6sbf (gate and up outputs kept for SwiGLU's backward, down-projection input); "
    "two norm inputs 4sbh. With a 4h GELU MLP and dropout the same count gives Korthikanti's 34sbh + 5as²b")


def _comm(name: str, expr: str, unit: str, meaning: str, inputs, miscon=(), **teaching) -> Formula:
    return Formula(name, inputs, expr, unit, meaning, "C§2", tuple(miscon), **teaching)


# forgetting the group's scale (and zero point) of group quantisation: the bare bit width (issue #15: named, and
# graded wrong - the templates' tolerance is tighter than the overhead)
GROUP_SCALE = ("forgot the group scale (and zero point): used the bare bit width",
               "漏了分组的缩放因子（和零点）：只用了裸位宽")


ONE_PASS_MISCON = (
    Misconception("allreduce_factor", "used the AllReduce factor 2 for a one-pass collective", "2*(n-1)/n*m",
                  "对只走一轮的集合通信用了 AllReduce 的因子 2"),
    Misconception("no_ring_factor", "forgot the (n-1)/n factor", "m", "漏了 (n-1)/n 因子"),
)

CATALOGUE: tuple[Formula, ...] = (
    # ---------------------------------------------------------------- memory (C§1)
    Formula("train_static_bytes", (PHI,), "16*phi", "bytes",
            "static training memory: 2 params + 2 grads + 12 AdamW fp32 (master, m, v) bytes per parameter",
            "C§1.1", (Misconception("weights_only", "counted only the fp16 weights (2Φ)", "2*phi", "只算了 fp16 权重（2Φ）"),
                      Misconception("optimizer_only", "counted only the AdamW states (12Φ)", "12*phi",
                                    "只算了 AdamW 优化器状态（12Φ）"),
                      Misconception("no_optimizer", "counted weights and gradients but not the optimizer (4Φ)", "4*phi",
                                    "算了权重和梯度，但漏了优化器状态（4Φ）")),
            "M_static",
            refs="micikevicius2018, rajbhandari2020",
            decomposition=("M_static = 2Φ bf16 weights + 2Φ bf16 gradients + 12Φ fp32 AdamW states "
                           "(4Φ master weights + 4Φ momentum + 4Φ variance) = 16Φ",),
            decomposition_zh=("M_static = 2Φ bf16 权重 + 2Φ bf16 梯度 + 12Φ fp32 AdamW 状态"
                              "（4Φ 主权重 + 4Φ 动量 + 4Φ 方差）= 16Φ",),
            parts=(Part("w_bf16", "W", "2*phi", "bytes", "bf16 weights, 2 B each", "bf16 权重，每个 2 B"),
                   Part("g_bf16", "G", "2*phi", "bytes", "bf16 gradients, 2 B each", "bf16 梯度，每个 2 B"),
                   Part("adam", "Opt", "12*phi", "bytes", "fp32 master weights, momentum and variance, 4 B each",
                        "fp32 主权重、动量、方差，各 4 B")),
            via="w_bf16 + g_bf16 + adam",
            takeaway="mixed-precision AdamW costs 16 bytes per parameter before a single activation: "
                     "{phi} parameters need {result} just for the training state.",
            takeaway_zh="混合精度 AdamW 每个参数要 16 字节，这还没算激活：{phi} 个参数光训练状态就要 {result}。",
            example={"phi": 7e9},
            meaning_zh="静态训练显存：每个参数 2 B 权重 + 2 B 梯度 + 12 B AdamW fp32 状态（主权重、m、v）"),
    Formula("zero1_bytes", (PHI, N_DP), "4*phi + 12*phi/n_dp", "bytes",
            "per-GPU static memory with ZeRO-1 (optimizer states sharded)", "C§1.2",
            (Misconception("zero2", "used the ZeRO-2 formula (2Φ + 14Φ/N)", "2*phi + 14*phi/n_dp",
                           "用成了 ZeRO-2 的公式（2Φ + 14Φ/N）"),
             Misconception("zero3", "used the ZeRO-3 formula (16Φ/N)", "16*phi/n_dp", "用成了 ZeRO-3 的公式（16Φ/N）"),
             Misconception("unsharded", "did not shard anything (16Φ)", "16*phi", "什么都没有切分（16Φ）")), "M_ZeRO-1",
            refs="rajbhandari2020",
            decomposition=("ZeRO-1 shards only the 12Φ optimizer states over the N_dp GPUs; every GPU still keeps the "
                           "whole 2Φ bf16 weights and 2Φ bf16 gradients: 4Φ + 12Φ/N_dp",),
            decomposition_zh=("ZeRO-1 只把 12Φ 的优化器状态切分到 N_dp 张 GPU 上；每张 GPU 仍保留完整的 2Φ bf16 权重和 "
                              "2Φ bf16 梯度：4Φ + 12Φ/N_dp",),
            parts=(Part("kept", "W+G", "4*phi", "bytes", "weights and gradients, replicated", "权重和梯度，每卡一份完整副本"),
                   Part("shard", "Opt/N_dp", "12*phi/n_dp", "bytes", "this GPU's share of the AdamW states",
                        "本卡分到的 AdamW 状态")),
            via="kept + shard",
            simplification=("as N_dp grows the shard vanishes and ZeRO-1 tends to 4Φ = {kept}: the replicated weights "
                            "and gradients are the floor",),
            simplification_zh=("N_dp 增大时切片趋于 0，ZeRO-1 趋于 4Φ = {kept}：复制的权重和梯度是下限",),
            takeaway="ZeRO-1 removes the biggest term, the 12Φ of AdamW state, at no extra communication: "
                     "the same volume as plain data parallelism.",
            takeaway_zh="ZeRO-1 切掉了最大的一项（12Φ 的 AdamW 状态），通信量却和普通数据并行一样。",
            example={"phi": 7e9, "n_dp": 8},
            meaning_zh="ZeRO-1 下每张 GPU 的静态显存（切分优化器状态）"),
    Formula("zero2_bytes", (PHI, N_DP), "2*phi + 14*phi/n_dp", "bytes",
            "per-GPU static memory with ZeRO-2 (optimizer states and gradients sharded)", "C§1.2",
            (Misconception("zero1", "used the ZeRO-1 formula (4Φ + 12Φ/N)", "4*phi + 12*phi/n_dp",
                           "用成了 ZeRO-1 的公式（4Φ + 12Φ/N）"),
             Misconception("zero3", "used the ZeRO-3 formula (16Φ/N)", "16*phi/n_dp", "用成了 ZeRO-3 的公式（16Φ/N）"),
             Misconception("unsharded", "did not shard anything (16Φ)", "16*phi", "什么都没有切分（16Φ）")), "M_ZeRO-2",
            refs="rajbhandari2020",
            decomposition=("ZeRO-2 shards the gradients too: only the 2Φ bf16 weights stay whole; gradients and "
                           "optimizer states, 2Φ + 12Φ = 14Φ, are split N_dp ways: 2Φ + 14Φ/N_dp",),
            decomposition_zh=("ZeRO-2 把梯度也切分了：只有 2Φ bf16 权重保持完整；梯度和优化器状态 2Φ + 12Φ = 14Φ "
                              "分成 N_dp 份：2Φ + 14Φ/N_dp",),
            parts=(Part("kept", "W", "2*phi", "bytes", "bf16 weights, replicated", "bf16 权重，每卡一份完整副本"),
                   Part("shard", "(G+Opt)/N_dp", "14*phi/n_dp", "bytes", "this GPU's share of gradients and AdamW states",
                        "本卡分到的梯度与 AdamW 状态")),
            via="kept + shard",
            simplification=("as N_dp grows ZeRO-2 tends to 2Φ = {kept}: the replicated weights are the floor",),
            simplification_zh=("N_dp 增大时 ZeRO-2 趋于 2Φ = {kept}：复制的权重是下限",),
            takeaway="ZeRO-2 reduce-scatters the gradients instead of all-reducing them: the same traffic as data "
                     "parallelism, with per-GPU memory falling toward 2Φ.",
            takeaway_zh="ZeRO-2 对梯度做 ReduceScatter 而不是 AllReduce：通信量与数据并行相同，每卡显存降向 2Φ。",
            example={"phi": 7e9, "n_dp": 8},
            meaning_zh="ZeRO-2 下每张 GPU 的静态显存（切分优化器状态和梯度）"),
    Formula("zero3_bytes", (PHI, N_DP), "16*phi/n_dp", "bytes",
            "per-GPU static memory with ZeRO-3 / FSDP (everything sharded)", "C§1.2",
            (Misconception("zero1", "used the ZeRO-1 formula (4Φ + 12Φ/N)", "4*phi + 12*phi/n_dp",
                           "用成了 ZeRO-1 的公式（4Φ + 12Φ/N）"),
             Misconception("zero2", "used the ZeRO-2 formula (2Φ + 14Φ/N)", "2*phi + 14*phi/n_dp",
                           "用成了 ZeRO-2 的公式（2Φ + 14Φ/N）"),
             Misconception("unsharded", "did not shard anything (16Φ)", "16*phi", "什么都没有切分（16Φ）")), "M_ZeRO-3",
            refs="rajbhandari2020",
            decomposition=("ZeRO-3 (FSDP) shards everything: weights, gradients and optimizer states, 16Φ in all, split "
                           "N_dp ways: 16Φ/N_dp",),
            decomposition_zh=("ZeRO-3（FSDP）全部切分：权重、梯度、优化器状态共 16Φ，分成 N_dp 份：16Φ/N_dp",),
            parts=(Part("total", "16Φ", "16*phi", "bytes", "the whole training state", "全部训练状态"),),
            via="total/n_dp",
            simplification=("16Φ/N_dp keeps falling as GPUs are added: no replicated floor, unlike ZeRO-1 (4Φ) and "
                            "ZeRO-2 (2Φ)",),
            simplification_zh=("16Φ/N_dp 随 GPU 增多一直下降：不像 ZeRO-1（4Φ）和 ZeRO-2（2Φ）那样有复制的下限",),
            takeaway="ZeRO-3 trades communication for memory: 16Φ/N per GPU, but the weights are gathered twice per "
                     "step, 1.5× the traffic of data parallelism.",
            takeaway_zh="ZeRO-3 用通信换显存：每卡 16Φ/N，但每步要 AllGather 两次权重，通信量是数据并行的 1.5 倍。",
            example={"phi": 7e9, "n_dp": 8},
            meaning_zh="ZeRO-3 / FSDP 下每张 GPU 的静态显存（全部切分）"),
    Formula("weights_bytes", (PHI, Input("bytes_per_param", "bytes", "bytes per parameter (fp16 = 2)", "bytes")),
            "phi*bytes_per_param", "bytes",
            "memory taken by the weights alone (also the size of a full gradient: one value per parameter)",
            "C§4.2, C§1.1, C§2",
            (Misconception("fp32", "counted 4 B per parameter (fp32) instead of the given precision", "4*phi",
                           "按每参数 4 B（fp32）算了，而不是给定的精度"),
             Misconception("static_16", "used the whole static training state 16Φ (weights + gradients + AdamW)",
                           "16*phi", "用了全部静态训练状态 16Φ（权重 + 梯度 + AdamW）"),
             # an MoE problem gives its active parameters as an extra: memory holds every expert
             Misconception("active_only", "counted only the active parameters: every expert must be in memory",
                           "phi_active*bytes_per_param", "只算了激活参数：所有专家都得放在显存里")), "M_weights",

            refs="gpu_datasheets",
            decomposition=("one value per parameter: Φ × bytes per parameter (fp32 4 B, bf16/fp16 2 B, fp8/int8 1 B, "
                           "int4 0.5 B)",),
            decomposition_zh=("每个参数一个值：Φ × 每参数字节数（fp32 4 B，bf16/fp16 2 B，fp8/int8 1 B，int4 0.5 B）",),
            takeaway="weight memory is Φ × bytes: halving the precision halves it, and at decode it also halves the "
                     "bytes read per token.",
            takeaway_zh="权重显存 = Φ × 字节数：精度减半显存就减半，decode 时每个 token 要读的字节也减半。",
            example={"phi": 70e9, "bytes_per_param": 2},
            meaning_zh="仅权重占用的显存（也是一份完整梯度的大小：每个参数一个值）"),
    Formula("min_gpus", (Input("total_bytes", "bytes", "memory to hold", "M_total"),
                         Input("gpu_bytes", "bytes", "memory of one GPU", "M_gpu")),
            "ceil(total_bytes/gpu_bytes)", "count", "fewest GPUs whose memory holds it (rounded up)",
            "C§1.1", (Misconception("rounded_down", "rounded down instead of up", "floor(total_bytes/gpu_bytes)",
                                    "向下取整了，应向上取整"),),
            "N_min",
            decomposition=("each GPU holds M_gpu; divide the total by one GPU's memory and round UP: a fraction of a "
                           "GPU is a whole GPU",),
            decomposition_zh=("每张 GPU 能放 M_gpu；总量除以单卡显存后向上取整：不足一张也得算一张",),
            parts=(Part("ratio", "M_total/M_gpu", "total_bytes/gpu_bytes", "count", "GPUs, before rounding",
                        "取整前的 GPU 数"),),
            takeaway="round up, and treat it as a floor: activations, buffers and fragmentation need more memory.",
            takeaway_zh="向上取整，而且这只是下限：激活、缓冲区和显存碎片还要更多空间。",
            example={"total_bytes": 1.12e12, "gpu_bytes": 80e9},
            meaning_zh="能装下它所需的最少 GPU 数（向上取整）"),
    Formula("activation_bytes_layer", (S, B, H, A), "s*b*h*(34 + 5*a*s/h)", "bytes",
            "activation memory of one transformer layer, no recomputation (fp16)", "C§1.3",
            (Misconception("linear_only", "kept only the 34sbh term (dropped 5as²b)", "34*s*b*h",
                           "只保留了 34sbh 项（漏了 5as²b）"),
             Misconception("quadratic_only", "kept only the 5as²b attention term", "5*a*s*s*b", "只保留了注意力的 5as²b 项")),
            "M_act",
            refs="korthikanti2022",
            decomposition=("34sbh: the 2-byte tensors a layer keeps for backward that grow with h (attention 11sbh, "
                           "MLP 19sbh, the two norms 4sbh)",
                           "5as²b: the attention scores QKᵀ and their softmax (2 B each: 4as²b) plus the 1-byte dropout "
                           "mask (as²b); it grows with s²"),
            decomposition_zh=("34sbh：一层为反向保留的、随 h 增长的 2 字节张量（注意力 11sbh，MLP 19sbh，两个归一化 4sbh）",
                              "5as²b：注意力分数 QKᵀ 及其 softmax（各 2 B：4as²b）加 1 字节的 dropout 掩码（as²b）；"
                              "它随 s² 增长"),
            parts=(Part("linear", "34sbh", "34*s*b*h", "bytes", "grows with the hidden size", "随隐藏维度增长"),
                   Part("quad", "5as²b", "5*a*s*s*b", "bytes", "attention scores, grows with s²", "注意力分数，随 s² 增长")),
            via="linear + quad",
            takeaway="the 5as²b term grows with s²: at long sequences it dominates, which is why FlashAttention "
                     "(never storing the scores) and recomputation matter.",
            takeaway_zh="5as²b 项随 s² 增长：长序列时它占大头，所以要用 FlashAttention（不存注意力分数）和重计算。",
            example={"s": 2048, "b": 1, "h": 4096, "a": 32},
            meaning_zh="一个 Transformer 层的激活值显存，不做重计算（fp16）"),
    # Korthikanti et al.'s count redone for a Llama-style layer: the derivation is in SWIGLU_LAYER_MEANING.
    Formula("activation_bytes_layer_swiglu",
            (S, B, H, A, N_KV, Input("ffn", "count", "MLP inner size (SwiGLU: each of gate and up)", "f")),
            "s*b*(12*h + 4*h*n_kv_heads/a + 6*ffn) + 2*a*s*s*b", "bytes", SWIGLU_LAYER_MEANING,
            "Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, §4.1 "
            "(https://arxiv.org/abs/2205.05198), recounted for a Llama-style layer (Touvron et al. 2023, "
            "arXiv:2302.13971: RMSNorm, SwiGLU, no dropout, no biases)",
            (Misconception("gpt_layer", "used the GPT-layer formula 34sbh + 5as²b (4h GELU MLP with dropout): this "
                           "layer has a SwiGLU MLP and no dropout", "s*b*h*(34 + 5*a*s/h)",
                           "用了 GPT 层的公式 34sbh + 5as²b（4h GELU MLP、带 dropout）：这一层是 SwiGLU MLP、没有 dropout"),
             Misconception("mha_kv", "stored K and V at the full width h; with grouped KV heads they are h·n_kv/a wide",
                           "s*b*(16*h + 6*ffn) + 2*a*s*s*b",
                           "把 K、V 按完整宽度 h 算了；分组 KV 头时它们只有 h·n_kv/a 宽"),
             Misconception("linear_only", "left out the 2as²b attention-score term",
                           "s*b*(12*h + 4*h*n_kv_heads/a + 6*ffn)", "漏了注意力分数的 2as²b 项")),
            "M_act",
            refs="korthikanti2022, touvron2023",
            decomposition=("attention keeps 6sbh + 4sb·h·n_kv/a: the QKV input, Q, K and V at their widths (K and V are "
                           "h·n_kv/a wide with grouped KV heads), the output-projection input; plus 2as²b of softmax "
                           "output",
                           "the SwiGLU MLP keeps 2sbh + 6sbf (its input, the gate and up outputs, the down-projection "
                           "input); the two RMSNorm inputs 4sbh; all bf16, 2 B per value"),
            decomposition_zh=("注意力保留 6sbh + 4sb·h·n_kv/a：QKV 输入、按各自宽度的 Q、K、V（分组 KV 头时 K、V 宽 h·n_kv/a）、"
                              "输出投影的输入；再加 2as²b 的 softmax 输出",
                              "SwiGLU MLP 保留 2sbh + 6sbf（输入、gate 与 up 的输出、down 投影的输入）；两个 RMSNorm 的"
                              "输入 4sbh；全部 bf16，每个值 2 B"),
            parts=(Part("linear", "sb(12h + 4h·n_kv/a + 6f)", "s*b*(12*h + 4*h*n_kv_heads/a + 6*ffn)", "bytes",
                        "grows with the widths h and f", "随宽度 h 和 f 增长"),
                   Part("quad", "2as²b", "2*a*s*s*b", "bytes", "softmax output, grows with s²",
                        "softmax 输出，随 s² 增长")),
            via="linear + quad",
            takeaway="the 2as²b score term grows with s²: at long sequences it dominates, which is why FlashAttention "
                     "(never storing the scores) and recomputation matter.",
            takeaway_zh="2as²b 的注意力分数项随 s² 增长：长序列时它占大头，所以要用 FlashAttention（不存注意力分数）和重计算。",
            example={"s": 4096, "b": 1, "h": 4096, "a": 32, "n_kv_heads": 8, "ffn": 14336},
            meaning_zh="一个 Llama 式层的激活值显存（RMSNorm、内层维度 f 的 SwiGLU MLP、无 dropout、无偏置），bf16，不做重计算"),
    Formula("activation_bytes_selective", (S, B, H), "34*s*b*h", "bytes",
            "activation memory per layer with selective recomputation (attention recomputed)", "C§1.3",
            (Misconception("full_recompute", "used full recomputation (2sbh)", "2*s*b*h",
                           "用成了完全重计算（2sbh）"),), "M_act_sel",
            refs="korthikanti2022",
            decomposition=("selective recomputation drops the 5as²b attention scores (big to store, cheap to recompute) "
                           "and keeps the 34sbh that grows with h",),
            decomposition_zh=("选择性重计算丢掉 5as²b 的注意力分数（存起来大，重算很便宜），保留随 h 增长的 34sbh",),
            takeaway="recomputing only attention removes the s² term for a few per cent more FLOPs: the default in "
                     "Megatron-LM.",
            takeaway_zh="只重算注意力部分，多花几个百分点的算力就去掉了 s² 项：Megatron-LM 的默认做法。",
            example={"s": 2048, "b": 1, "h": 4096},
            meaning_zh="选择性重计算（重算注意力）时每层的激活值显存"),
    Formula("activation_bytes_full_recompute", (S, B, H), "2*s*b*h", "bytes",
            "activation memory per layer with full recomputation (only the layer input kept)", "C§1.3",
            (Misconception("selective", "used selective recomputation (34sbh)", "34*s*b*h",
                           "用成了选择性重计算（34sbh）"),), "M_act_full",
            refs="korthikanti2022",
            decomposition=("full recomputation keeps only the layer's input, s·b·h values of 2 B each = 2sbh, and reruns "
                           "the layer's forward pass during backward",),
            decomposition_zh=("完全重计算只保留层的输入：s·b·h 个值、每个 2 B = 2sbh，反向时把这一层的前向重跑一遍",),
            takeaway="full recomputation cuts activations to 2sbh per layer but costs another forward pass: about a "
                     "third more compute (8Φ instead of 6Φ per token).",
            takeaway_zh="完全重计算把每层激活降到 2sbh，但要多跑一次前向：算力多约三分之一（每 token 8Φ 而非 6Φ）。",
            example={"s": 2048, "b": 1, "h": 4096},
            meaning_zh="完全重计算（只保留层输入）时每层的激活值显存"),
    # ---------------------------------------------------------- communication (C§2)
    _comm("allreduce_bytes", "2*(n-1)/n*m", "bytes", "bytes each GPU sends in a ring AllReduce",
          (M_BYTES, N_RANKS),
          (Misconception("no_factor_2", "dropped the factor 2: a ring AllReduce is ReduceScatter + AllGather",
                         "(n-1)/n*m", "漏了因子 2：Ring AllReduce = ReduceScatter + AllGather"),
           Misconception("no_ring_factor", "dropped the (n-1)/n factor (2M is only the large-N limit)", "2*m",
                         "漏了 (n-1)/n 因子（2M 只是 N 很大时的极限）")),
          refs="patarasuk2009",
          decomposition=("a ring AllReduce is a ReduceScatter then an AllGather; each pass sends N−1 chunks of M/N, "
                         "so each GPU sends 2 × (N−1)/N × M",),
          decomposition_zh=("Ring AllReduce = ReduceScatter + AllGather；每轮发送 N−1 个大小为 M/N 的分块，所以每张 GPU "
                            "发送 2 × (N−1)/N × M",),
          parts=(Part("factor", "2(N−1)/N", "2*(n-1)/n", "count", "the ring factor", "ring 因子"),),
          via="factor*m",
          simplification=("2(N−1)/N → 2 as N grows: each GPU sends about 2M whatever the size of the ring",),
          simplification_zh=("N 增大时 2(N−1)/N → 2：无论 ring 多大，每张 GPU 都约发送 2M",),
          takeaway="ring AllReduce traffic per GPU stays near 2M however many GPUs join: that is why data "
                   "parallelism scales, and why latency, not bandwidth, hurts small messages.",
          takeaway_zh="Ring AllReduce 每卡通信量约 2M，与 GPU 数无关：这是数据并行能扩展的原因；小消息则受延迟而非带宽限制。",
          example={"m": 1e9, "n": 8},
          meaning_zh="Ring AllReduce 中每张 GPU 发送的字节数"),
    _comm("reduce_scatter_bytes", "(n-1)/n*m", "bytes", "bytes each GPU sends in a ring ReduceScatter",
          (M_BYTES, N_RANKS), ONE_PASS_MISCON,
          refs="patarasuk2009",
          decomposition=("each GPU sends every chunk but its own once: N−1 chunks of M/N",),
          decomposition_zh=("每张 GPU 把除自己那块以外的分块各发一次：N−1 个大小为 M/N 的分块",),
          simplification=("(N−1)/N → 1 as N grows: one pass sends about M",),
          simplification_zh=("N 增大时 (N−1)/N → 1：一轮约发送 M",),
          takeaway="ReduceScatter is half an AllReduce: ZeRO-2/3 use it so each GPU keeps only its own shard of the "
                   "gradients.",
          takeaway_zh="ReduceScatter 是半个 AllReduce：ZeRO-2/3 用它让每张 GPU 只保留自己那份梯度。",
          example={"m": 1e9, "n": 8},
          meaning_zh="Ring ReduceScatter 中每张 GPU 发送的字节数"),
    _comm("allgather_bytes", "(n-1)/n*m", "bytes", "bytes each GPU sends in a ring AllGather",
          (M_BYTES, N_RANKS), ONE_PASS_MISCON,
          refs="patarasuk2009",
          decomposition=("each GPU passes on N−1 chunks of M/N around the ring until everyone has all N",),
          decomposition_zh=("每张 GPU 沿 ring 转发 N−1 个大小为 M/N 的分块，直到每张卡都拿齐 N 块",),
          simplification=("(N−1)/N → 1 as N grows: one pass sends about M",),
          simplification_zh=("N 增大时 (N−1)/N → 1：一轮约发送 M",),
          takeaway="AllGather is the other half of an AllReduce: ZeRO-3/FSDP run it to rebuild the full weights "
                   "before each layer.",
          takeaway_zh="AllGather 是 AllReduce 的另一半：ZeRO-3/FSDP 在每层计算前用它拼回完整权重。",
          example={"m": 1e9, "n": 8},
          meaning_zh="Ring AllGather 中每张 GPU 发送的字节数"),
    _comm("alltoall_bytes", "(n-1)/n*m", "bytes", "bytes each GPU sends in an All-to-All",
          (M_BYTES, N_RANKS), ONE_PASS_MISCON,
          refs="thakur2005",
          decomposition=("each GPU sends a distinct M/N piece to each of the other N−1 GPUs",),
          decomposition_zh=("每张 GPU 给其余 N−1 张 GPU 各发一块不同的 M/N",),
          simplification=("(N−1)/N → 1 as N grows: about M per GPU",),
          simplification_zh=("N 增大时 (N−1)/N → 1：每张 GPU 约发送 M",),
          takeaway="All-to-All sends as much as an AllGather but between every pair at once: in MoE expert "
                   "parallelism the slowest links set its time.",
          takeaway_zh="All-to-All 的通信量和 AllGather 一样，但所有卡两两同时通信：MoE 专家并行中最慢的链路决定它的耗时。",
          example={"m": 1e9, "n": 8},
          meaning_zh="All-to-All 中每张 GPU 发送的字节数"),
    _comm("p2p_bytes", "m", "bytes", "bytes sent by a point-to-point Send/Recv", (M_BYTES,),
          decomposition=("a point-to-point Send/Recv moves the message once: M bytes",),
          decomposition_zh=("点对点 Send/Recv 只把消息发送一次：M 字节",),
          takeaway="pipeline stages exchange only activations point to point: far less traffic than a data-parallel "
                   "AllReduce of the gradients.",
          takeaway_zh="流水线各阶段之间只点对点传激活：通信量远小于数据并行对梯度的 AllReduce。",
          example={"m": 1e8},
          meaning_zh="点对点 Send/Recv 发送的字节数"),
    _comm("allreduce_time", "2*(n-1)*alpha + 2*(n-1)/n*m/beta", "time",
          "ring AllReduce time in the alpha-beta model", (M_BYTES, N_RANKS, ALPHA, BETA),
          (Misconception("no_latency", "left out the 2(N−1)α latency term", "2*(n-1)/n*m/beta", "漏了 2(N−1)α 延迟项"),
           Misconception("no_factor_2", "dropped the factor 2 (one pass instead of two)",
                         "(n-1)*alpha + (n-1)/n*m/beta", "漏了因子 2（只算了一轮，应为两轮）")),
          refs="thakur2005, patarasuk2009",
          decomposition=("α-β model: each of the 2(N−1) ring steps pays a latency α, and the 2(N−1)/N × M bytes each GPU "
                         "sends cross a link of bandwidth β",),
          decomposition_zh=("α-β 模型：ring 的 2(N−1) 步每步付一次延迟 α，每张 GPU 发送的 2(N−1)/N × M 字节走带宽为 β 的链路",),
          parts=(Part("lat", "T_α", "2*(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "2*(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: the bandwidth term dominates and T ≈ 2M/β; small messages: the latency term "
                          "2(N−1)α dominates",),
          simplification_zh=("大消息带宽项占主导，T ≈ 2M/β；小消息延迟项 2(N−1)α 占主导",),
          takeaway="compare the two terms: large gradients are bandwidth-bound (overlap them with compute), tiny "
                   "messages are latency-bound (bucket them together).",
          takeaway_zh="比较两项：大梯度受带宽限制（与计算重叠），小消息受延迟限制（合并成桶再发）。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9},
          meaning_zh="α-β 模型下 Ring AllReduce 的耗时"),
    _comm("reduce_scatter_time", "(n-1)*alpha + (n-1)/n*m/beta", "time",
          "ring ReduceScatter time in the alpha-beta model", (M_BYTES, N_RANKS, ALPHA, BETA),
          (Misconception("no_latency", "left out the (N−1)α latency term", "(n-1)/n*m/beta", "漏了 (N−1)α 延迟项"),),
          refs="thakur2005, patarasuk2009",
          decomposition=("α-β model: N−1 ring steps, each paying a latency α, while each GPU sends (N−1)/N × M at "
                         "bandwidth β",),
          decomposition_zh=("α-β 模型：ring 共 N−1 步，每步付一次延迟 α；每张 GPU 以带宽 β 发送 (N−1)/N × M",),
          parts=(Part("lat", "T_α", "(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: T ≈ M/β, half an AllReduce",),
          simplification_zh=("大消息时 T ≈ M/β，是 AllReduce 的一半",),
          takeaway="a ReduceScatter costs half an AllReduce: sharded optimizers (ZeRO-2/3) use it instead.",
          takeaway_zh="ReduceScatter 的耗时是 AllReduce 的一半：切分优化器（ZeRO-2/3）用它替代 AllReduce。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9},
          meaning_zh="α-β 模型下 Ring ReduceScatter 的耗时"),
    _comm("allgather_time", "(n-1)*alpha + (n-1)/n*m/beta", "time",
          "ring AllGather time in the alpha-beta model", (M_BYTES, N_RANKS, ALPHA, BETA),
          (Misconception("no_latency", "left out the (N−1)α latency term", "(n-1)/n*m/beta", "漏了 (N−1)α 延迟项"),),
          refs="thakur2005, patarasuk2009",
          decomposition=("α-β model: N−1 ring steps, each paying a latency α, while each GPU sends (N−1)/N × M at "
                         "bandwidth β",),
          decomposition_zh=("α-β 模型：ring 共 N−1 步，每步付一次延迟 α；每张 GPU 以带宽 β 发送 (N−1)/N × M",),
          parts=(Part("lat", "T_α", "(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: T ≈ M/β, half an AllReduce",),
          simplification_zh=("大消息时 T ≈ M/β，是 AllReduce 的一半",),
          takeaway="FSDP hides each layer's AllGather behind the previous layer's compute: it only hurts when it "
                   "takes longer than that compute.",
          takeaway_zh="FSDP 把每层的 AllGather 藏在前一层的计算后面：只有它比计算还慢时才会拖慢训练。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9},
          meaning_zh="α-β 模型下 Ring AllGather 的耗时"),
    _comm("alltoall_time", "(n-1)*alpha + (n-1)/n*m/beta", "time",
          "All-to-All time in the alpha-beta model", (M_BYTES, N_RANKS, ALPHA, BETA),
          (Misconception("no_latency", "left out the (N−1)α latency term", "(n-1)/n*m/beta", "漏了 (N−1)α 延迟项"),),
          refs="thakur2005",
          decomposition=("α-β model: N−1 exchanges, each paying a latency α, while each GPU sends (N−1)/N × M at "
                         "bandwidth β",),
          decomposition_zh=("α-β 模型：共 N−1 次交换，每次付一次延迟 α；每张 GPU 以带宽 β 发送 (N−1)/N × M",),
          parts=(Part("lat", "T_α", "(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: T ≈ M/β",),
          simplification_zh=("大消息时 T ≈ M/β",),
          takeaway="MoE token routing is an All-to-All on the critical path twice per layer: its time over the "
                   "slowest link often sets the MoE layer's speed.",
          takeaway_zh="MoE 的 token 路由每层在关键路径上做两次 All-to-All：最慢链路上的耗时往往决定 MoE 层的速度。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9},
          meaning_zh="α-β 模型下 All-to-All 的耗时"),
    _comm("p2p_time", "alpha + m/beta", "time", "point-to-point Send/Recv time in the alpha-beta model",
          (M_BYTES, ALPHA, BETA), (Misconception("no_latency", "left out the latency α", "m/beta", "漏了延迟 α"),),
          refs="thakur2005",
          decomposition=("one message: one latency α plus M/β on the wire",),
          decomposition_zh=("一条消息：一次延迟 α，加上在链路上传输的 M/β",),
          parts=(Part("bw", "M/β", "m/beta", "time", "time on the wire", "传输时间"),),
          via="alpha + bw",
          takeaway="small activations between pipeline stages are latency-bound: α matters as much as β.",
          takeaway_zh="流水线阶段间的小激活受延迟限制：α 和 β 一样重要。",
          example={"m": 1e8, "alpha": 5e-6, "beta": 50e9},
          meaning_zh="α-β 模型下点对点 Send/Recv 的耗时"),
    # ----------------------------------------------------------------- MFU (C§3)
    Formula("train_flops_per_token", (PHI, Input("l", "count", "transformer layers", "L"), A, S,
                                      Input("h_head", "count", "head dimension", "h_head")),
            "6*phi + 12*l*a*s*h_head", "flop", "training FLOPs per token, attention term included", "C§3.1",
            (Misconception("no_attention", "dropped the attention term 12·L·a·s·h_head", "6*phi",
                           "漏了注意力项 12·L·a·s·h_head"),
             Misconception("forward_only", "counted only the forward pass (2Φ + 4·L·a·s·h_head)",
                           "2*phi + 4*l*a*s*h_head", "只算了前向（2Φ + 4·L·a·s·h_head）")), "FLOPs/token",
            refs="kaplan2020, narayanan2021",
            decomposition=("6Φ: each parameter does one multiply-add (2 FLOPs) per token forward and two backward "
                           "(4 FLOPs): 2Φ + 4Φ",
                           "12·L·a·s·h_head: attention scores QKᵀ and the weighted sum of V, 2·2·s·h_head FLOPs per "
                           "head and layer forward, ×3 with backward"),
            decomposition_zh=("6Φ：每个参数每个 token 前向做一次乘加（2 FLOPs），反向两次（4 FLOPs）：2Φ + 4Φ",
                              "12·L·a·s·h_head：注意力分数 QKᵀ 和对 V 的加权求和，前向每层每头 2·2·s·h_head FLOPs，"
                              "加上反向 ×3"),
            parts=(Part("dense", "6Φ", "6*phi", "flop", "the parameters: 2Φ forward + 4Φ backward",
                        "参数部分：前向 2Φ + 反向 4Φ"),
                   Part("attn", "12·L·a·s·h_head", "12*l*a*s*h_head", "flop", "attention scores and weighted V",
                        "注意力分数与 V 的加权")),
            via="dense + attn",
            takeaway="6Φ per token is the rule of thumb; the attention term matters once the sequence length is "
                     "comparable with the model width.",
            takeaway_zh="每 token 6Φ 是经验公式；当序列长度和模型宽度相当时，注意力项就不能忽略了。",
            example={"phi": 7e9, "l": 32, "a": 32, "s": 4096, "h_head": 128},
            meaning_zh="训练时每个 token 的 FLOPs（含注意力项）"),
    Formula("forward_flops_per_token", (PHI,), "2*phi", "flop", "forward-pass FLOPs per token", "C§3.1",
            (Misconception("training", "used the training figure 6Φ", "6*phi", "用成了训练的 6Φ"),
             # an MoE problem gives its total parameters as an extra: a token only uses its top-k experts
             Misconception("total_params", "used the total parameters: a token only passes through its top-k experts",
                           "2*phi_total", "用了总参数量：一个 token 只经过它的 top-k 个专家")), "FLOPs/token",

            refs="kaplan2020",
            decomposition=("each parameter is one multiply-add per token in the forward pass: 2 FLOPs × Φ",),
            decomposition_zh=("前向时每个参数对每个 token 做一次乘加：2 FLOPs × Φ",),
            takeaway="a forward pass costs 2Φ FLOPs per token, a third of training's 6Φ: inference budgets start here.",
            takeaway_zh="前向每个 token 2Φ FLOPs，是训练 6Φ 的三分之一：推理的算力预算从这里算起。",
            example={"phi": 7e9},
            meaning_zh="前向每个 token 的 FLOPs"),
    Formula("mfu", (TPS, PHI, N_GPUS, PEAK), "tokens_per_s*6*phi/(n_gpus*peak_flops)", "ratio",
            "model FLOPs utilisation (6Φ per token, recomputation not counted)", "C§3.2",
            (Misconception("forward_only", "used 2Φ (forward only) instead of 6Φ",
                           "tokens_per_s*2*phi/(n_gpus*peak_flops)", "用了 2Φ（只算前向），应为 6Φ"),
             Misconception("hfu", "counted recomputation (8Φ): that is HFU",
                           "tokens_per_s*8*phi/(n_gpus*peak_flops)", "把重计算也算进去了（8Φ）：那是 HFU"),
             Misconception("one_gpu", "forgot to divide by the number of GPUs",
                           "tokens_per_s*6*phi/peak_flops", "忘了除以 GPU 数")), "MFU",
            refs="chowdhery2022",
            decomposition=("useful model FLOP/s = tokens/s × 6Φ (forward + backward, recomputation not counted); "
                           "available = N GPUs × peak",),
            decomposition_zh=("有效模型算力 = tokens/s × 6Φ（前向 + 反向，不算重计算）；可用算力 = N 张 GPU × 峰值",),
            parts=(Part("achieved", "tok/s·6Φ", "tokens_per_s*6*phi", "flop_rate", "model FLOP/s achieved",
                        "实际达到的模型算力"),
                   Part("avail", "N·F_peak", "n_gpus*peak_flops", "flop_rate", "peak of all the GPUs", "全部 GPU 的峰值")),
            via="achieved/avail",
            takeaway="MFU counts only the model's useful FLOPs: published large dense runs reach 35-55 % (PaLM 46 %); far below, "
                     "look for communication, pipeline bubbles or small kernels.",
            takeaway_zh="MFU 只算模型的有效 FLOPs：公开的大规模稠密训练约 35-55 %（PaLM 46 %）；远低于此就去查通信、流水线气泡或小算子。",
            example={"tokens_per_s": 1e6, "phi": 7e9, "n_gpus": 128, "peak_flops": 1000e12},
            meaning_zh="模型算力利用率（每 token 6Φ，不算重计算）"),
    Formula("hfu", (TPS, PHI, N_GPUS, PEAK), "tokens_per_s*8*phi/(n_gpus*peak_flops)", "ratio",
            "hardware FLOPs utilisation with full recomputation (8Φ per token)", "C§3.2",
            (Misconception("mfu", "used 6Φ: that is MFU, recomputation not counted",
                           "tokens_per_s*6*phi/(n_gpus*peak_flops)", "用了 6Φ：那是 MFU，不算重计算"),), "HFU",
            refs="chowdhery2022",
            decomposition=("with full recomputation the forward pass runs twice: 2Φ + 2Φ (recomputed) + 4Φ backward = "
                           "8Φ per token executed by the hardware",),
            decomposition_zh=("完全重计算时前向跑两遍：2Φ + 2Φ（重算）+ 4Φ 反向 = 硬件每 token 执行 8Φ",),
            parts=(Part("achieved", "tok/s·8Φ", "tokens_per_s*8*phi", "flop_rate", "FLOP/s the hardware executes",
                        "硬件实际执行的算力"),
                   Part("avail", "N·F_peak", "n_gpus*peak_flops", "flop_rate", "peak of all the GPUs", "全部 GPU 的峰值")),
            via="achieved/avail",
            takeaway="HFU ≥ MFU: recomputation keeps the hardware busy without advancing the model, so compare "
                     "systems by MFU.",
            takeaway_zh="HFU ≥ MFU：重计算让硬件忙着却不推进模型训练，所以比较不同系统要看 MFU。",
            example={"tokens_per_s": 1e6, "phi": 7e9, "n_gpus": 128, "peak_flops": 1000e12},
            meaning_zh="完全重计算时的硬件算力利用率（每 token 8Φ）"),
    Formula("train_flops", (PHI, TOKENS), "6*phi*tokens", "flop", "total training FLOPs (6ΦD)", "C§3.1",
            (Misconception("forward_only", "used 2ΦD (forward only)", "2*phi*tokens", "用了 2ΦD（只算前向）"),), "C",
            refs="kaplan2020",
            decomposition=("6Φ FLOPs per token (2Φ forward + 4Φ backward) × D training tokens",),
            decomposition_zh=("每 token 6Φ FLOPs（前向 2Φ + 反向 4Φ）× D 个训练 token",),
            takeaway="C = 6ΦD is the budget of a training run; divide it by N × peak × MFU to get the wall-clock time.",
            takeaway_zh="C = 6ΦD 是一次训练的算力预算；除以 N × 峰值 × MFU 就是训练时间。",
            example={"phi": 7e9, "tokens": 1e12},
            meaning_zh="训练总 FLOPs（6ΦD）"),
    Formula("train_time", (PHI, TOKENS, N_GPUS, PEAK, Input("mfu", "ratio", "model FLOPs utilisation", "MFU")),
            "6*phi*tokens/(n_gpus*peak_flops*mfu)", "time", "wall-clock training time at a given MFU", "C§3",
            (Misconception("no_mfu", "assumed 100% utilisation (left out MFU)", "6*phi*tokens/(n_gpus*peak_flops)",
                           "假设了 100% 利用率（漏了 MFU）"),
             Misconception("forward_only", "used 2ΦD instead of 6ΦD", "2*phi*tokens/(n_gpus*peak_flops*mfu)",
                           "用了 2ΦD，应为 6ΦD")),
            "T",
            refs="kaplan2020, chowdhery2022",
            decomposition=("time = work ÷ rate: 6ΦD FLOPs over N GPUs × peak × MFU",),
            decomposition_zh=("时间 = 工作量 ÷ 速率：6ΦD FLOPs 除以 N 张 GPU × 峰值 × MFU",),
            parts=(Part("work", "6ΦD", "6*phi*tokens", "flop", "total training FLOPs", "训练总 FLOPs"),
                   Part("rate", "N·F_peak·MFU", "n_gpus*peak_flops*mfu", "flop_rate", "sustained FLOP/s of the cluster",
                        "集群实际持续算力")),
            via="work/rate",
            takeaway="training time is 6ΦD / (N · peak · MFU): raising MFU from 30 % to 45 % is worth as much as 50 % "
                     "more GPUs.",
            takeaway_zh="训练时间 = 6ΦD / (N · 峰值 · MFU)：MFU 从 30 % 提到 45 %，相当于多加 50 % 的 GPU。",
            example={"phi": 7e9, "tokens": 1e12, "n_gpus": 128, "peak_flops": 1000e12, "mfu": 0.4},
            meaning_zh="给定 MFU 时的训练时间"),
    # ----------------------------------------------------------- inference (C§4)
    Formula("kv_cache_bytes", (Input("batch", "count", "batch size (sequences)", "B"),
                               Input("seq", "count", "sequence length (tokens)", "S"), LAYERS, N_KV, D_HEAD, BPE),
            "2*bytes_per_elem*batch*seq*layers*n_kv_heads*d_head", "bytes", "KV cache for the whole batch",
            "C§4.1", (Misconception("no_kv_factor", "forgot that both K and V are cached (factor 2)",
                                    "bytes_per_elem*batch*seq*layers*n_kv_heads*d_head", "忘了 K 和 V 都要缓存（因子 2）"),
                      Misconception("used_n_heads", "used the query heads instead of the KV heads (GQA/MQA)",
                                    "2*bytes_per_elem*batch*seq*layers*n_heads*d_head",
                                    "用了 Query 头数而不是 KV 头数（GQA/MQA）"),
                      Misconception("elements", "counted elements, not bytes",
                                    "2*batch*seq*layers*n_kv_heads*d_head", "算的是元素个数，不是字节数")), "M_KV",
            refs="pope2022, ainslie2023",
            decomposition=("per token and layer the cache keeps one K and one V vector for each KV head: "
                           "2 × n_kv × d_head values of `bytes` each; × L layers, × S tokens, × B sequences",),
            decomposition_zh=("每个 token、每层为每个 KV 头缓存一个 K 向量和一个 V 向量：2 × n_kv × d_head 个值，每个 "
                              "bytes 字节；再 × L 层、× S 个 token、× B 条序列",),
            parts=(Part("kv_token", "KV/token", "2*bytes_per_elem*layers*n_kv_heads*d_head", "bytes",
                        "K and V of every layer, for one token", "一个 token 在所有层的 K 和 V"),),
            via="kv_token*batch*seq",
            takeaway="the KV cache grows linearly with batch and sequence length: at long context it, not the weights, "
                     "limits the batch (GQA shrinks it n_heads/n_kv times).",
            takeaway_zh="KV Cache 随 batch 和序列长度线性增长：长上下文时限制 batch 的是它而不是权重（GQA 把它缩小 "
                        "n_heads/n_kv 倍）。",
            example={"batch": 8, "seq": 4096, "layers": 32, "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": 2},
            meaning_zh="整个 batch 的 KV Cache"),
    Formula("kv_bytes_per_token", (LAYERS, N_KV, D_HEAD, BPE), "2*bytes_per_elem*layers*n_kv_heads*d_head",
            "bytes", "KV cache bytes added per token (all layers)", "C§4.1",
            (Misconception("no_kv_factor", "forgot that both K and V are cached (factor 2)",
                           "bytes_per_elem*layers*n_kv_heads*d_head", "忘了 K 和 V 都要缓存（因子 2）"),
             Misconception("used_n_heads", "used the query heads instead of the KV heads (GQA/MQA)",
                           "2*bytes_per_elem*layers*n_heads*d_head", "用了 Query 头数而不是 KV 头数（GQA/MQA）"),
             Misconception("one_layer", "counted one layer, not all of them", "2*bytes_per_elem*n_kv_heads*d_head",
                           "只算了一层，没有乘以层数"),
             Misconception("elements", "counted elements, not bytes", "2*layers*n_kv_heads*d_head",
                           "算的是元素个数，不是字节数")), "KV/token",
            refs="pope2022, ainslie2023",
            decomposition=("each layer caches one K and one V vector per KV head for every token: "
                           "2 × n_kv × d_head values of `bytes` each, × L layers",),
            decomposition_zh=("每层为每个 token 的每个 KV 头缓存一个 K 和一个 V 向量：2 × n_kv × d_head 个值，每个 bytes "
                              "字节，再 × L 层",),
            parts=(Part("per_layer", "KV/layer", "2*bytes_per_elem*n_kv_heads*d_head", "bytes", "K and V of one layer",
                        "一层的 K 和 V"),),
            via="per_layer*layers",
            takeaway="know the KV bytes per token of your model: free memory ÷ this number is how many tokens a server "
                     "can hold.",
            takeaway_zh="记住你的模型每 token 的 KV 字节数：空闲显存 ÷ 它 = 服务器能容纳多少个 token。",
            example={"layers": 32, "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": 2},
            meaning_zh="每个 token 新增的 KV Cache 字节数（所有层）"),
    Formula("decode_tokens_per_s", (BW, Input("weight_bytes", "bytes", "bytes of weights read per step", "W"),
                                    Input("kv_bytes", "bytes", "KV cache bytes read per step", "KV")),
            "bandwidth/(weight_bytes + kv_bytes)", "tok_rate",
            "batch-1 decode upper bound: every token reads all weights and the KV cache", "C§4.2",
            (Misconception("no_kv", "ignored the KV cache read", "bandwidth/weight_bytes",
                           "忽略了 KV Cache 的读取"),), "tok/s",
            refs="pope2022",
            decomposition=("at batch 1, every generated token reads all the weights and the whole KV cache from "
                           "memory once; its 2Φ FLOPs take far less time than those bytes",),
            decomposition_zh=("batch 为 1 时，每生成一个 token 都要把全部权重和整个 KV Cache 从显存读一遍；"
                              "它的 2Φ FLOPs 耗时远小于读这些字节",),
            parts=(Part("read", "bytes/token", "weight_bytes + kv_bytes", "bytes", "bytes read per token",
                        "每个 token 读取的字节数"),),
            via="bandwidth/read",
            takeaway="decode at batch 1 reads every weight per token: it is bandwidth, not FLOPs, that sets tok/s.",
            takeaway_zh="batch 为 1 的 decode 每个 token 都要读一遍全部权重：决定 tok/s 的是显存带宽，不是 FLOPs。",
            example={"bandwidth": 3e12, "weight_bytes": 140e9, "kv_bytes": 10e9},
            meaning_zh="batch 为 1 的 decode 上限：每个 token 读全部权重和 KV Cache"),
    Formula("decode_tokens_per_s_batch",
            (BW, Input("weight_bytes", "bytes", "bytes of weights read per step", "W"),
             Input("kv_bytes_per_seq", "bytes", "KV cache bytes of one sequence", "KV_seq"),
             Input("batch", "count", "sequences decoded together", "B")),
            "batch*bandwidth/(weight_bytes + batch*kv_bytes_per_seq)", "tok_rate",
            "memory-bound decode throughput of a batch: one step reads the weights once and every sequence's KV",
            "C§4.2, R§4.1",
            (Misconception("per_sequence", "gave one sequence's rate, not the batch's",
                           "bandwidth/(weight_bytes + batch*kv_bytes_per_seq)", "给出的是单条序列的速率，不是整个 batch 的"),
             Misconception("no_kv", "ignored the KV cache reads", "batch*bandwidth/weight_bytes", "忽略了 KV Cache 的读取"),
             Misconception("weights_per_seq", "read the weights once per sequence",
                           "batch*bandwidth/(batch*weight_bytes + batch*kv_bytes_per_seq)", "让每条序列各读了一遍权重")), "tok/s",
            refs="pope2022",
            decomposition=("one decode step reads the weights once (shared by the whole batch) and each sequence's KV "
                           "cache, and yields one token per sequence",),
            decomposition_zh=("一步 decode 读一遍权重（整个 batch 共享）和每条序列各自的 KV Cache，每条序列产出一个 token",),
            parts=(Part("step", "bytes/step", "weight_bytes + batch*kv_bytes_per_seq", "bytes",
                        "bytes read per decode step", "每步 decode 读取的字节数"),
                   Part("t_step", "T_step", "step/bandwidth", "time", "time of one step", "一步的时间")),
            via="batch/t_step",
            takeaway="batching shares the weight reads: throughput rises almost linearly with B until the KV reads, "
                     "or compute, take over.",
            takeaway_zh="批处理让多条序列共享权重读取：吞吐几乎随 B 线性增长，直到 KV 读取或算力成为瓶颈。",
            example={"bandwidth": 3e12, "weight_bytes": 140e9, "kv_bytes_per_seq": 1e9, "batch": 16},
            meaning_zh="一个 batch 的访存受限 decode 吞吐：每步读一遍权重和每条序列的 KV"),
    Formula("critical_batch", (PEAK, BW, BPE), "peak_flops/bandwidth*bytes_per_elem/2", "count",
            "decode batch at which weight-streaming GEMMs become compute-bound (ridge × bytes / 2)",
            "R§4.1, C§4.2",
            (Misconception("ridge", "gave the ridge point itself (forgot bytes/2 FLOP per weight)",
                           "peak_flops/bandwidth", "直接给出了拐点本身（漏了 × 字节数/2：每个权重每条序列 2 FLOP）"),
             Misconception("no_half", "forgot that a weight does 2 FLOPs per sequence",
                           "peak_flops/bandwidth*bytes_per_elem", "忘了每个权重对每条序列要做 2 FLOP")), "B*",
            refs="pope2022",
            decomposition=("per step each weight is read once (`bytes` B) and used for 2 FLOPs per sequence: a decode "
                           "GEMM does 2B / bytes FLOP/B, which reaches the ridge I* at B = I* × bytes / 2",),
            decomposition_zh=("每步每个权重读一次（bytes 字节），对每条序列做 2 FLOPs：decode GEMM 的算术强度为 "
                              "2B / bytes FLOP/B，在 B = I* × bytes / 2 时到达拐点 I*",),
            parts=(Part("ridge", "I*", "peak_flops/bandwidth", "intensity", "ridge point", "拐点算术强度"),),
            via="ridge*bytes_per_elem/2",
            takeaway="below this batch decode leaves the tensor cores idle: servers batch requests to get near it, and "
                     "quantised weights lower it.",
            takeaway_zh="batch 低于它时 decode 让 Tensor Core 闲着：推理服务要把请求攒成 batch 来接近它；权重量化会降低它。",
            example={"peak_flops": 1000e12, "bandwidth": 4e12, "bytes_per_elem": 2},
            meaning_zh="decode 时权重 GEMM 转为算力受限的 batch（拐点 × 字节数 / 2）"),
    Formula("prefill_time", (PHI, TOKENS, PEAK), "2*phi*tokens/peak_flops", "time",
            "prefill lower bound: compute-bound forward pass over the prompt", "C§4.2",
            (Misconception("training_flops", "used 6Φ per token (training) instead of 2Φ (forward)",
                           "6*phi*tokens/peak_flops", "每个 token 用了 6Φ（训练），应为 2Φ（前向）"),), "T_prefill",
            refs="pope2022",
            decomposition=("prefill runs the whole prompt at once: big GEMMs, compute-bound, 2Φ FLOPs per token at the "
                           "peak",),
            decomposition_zh=("prefill 一次处理整段 prompt：大 GEMM，算力受限，每 token 2Φ FLOPs、按峰值算力计",),
            parts=(Part("work", "2Φ·D", "2*phi*tokens", "flop", "forward FLOPs of the prompt", "整段 prompt 的前向 FLOPs"),),
            via="work/peak_flops",
            takeaway="prefill is compute-bound and decode memory-bound: time-to-first-token and tokens per second are "
                     "tuned by different means.",
            takeaway_zh="prefill 算力受限、decode 访存受限：首 token 延迟和每秒 token 数要用不同手段优化。",
            example={"phi": 7e9, "tokens": 2000, "peak_flops": 1000e12},
            meaning_zh="prefill 的时间下限：整段 prompt 的前向按峰值算力计"),
    # -------------------------------------------------------------- roofline (R, C§5)
    Formula("arithmetic_intensity", (Input("flops", "flop", "floating-point operations", "FLOPs"),
                                     Input("bytes", "bytes", "bytes moved to/from memory", "Bytes")),
            "flops/bytes", "intensity", "FLOPs per byte of memory traffic", "R§2.3, C§5.1",
            (Misconception("inverted", "divided bytes by FLOPs", "bytes/flops", "用字节数除以 FLOPs（除反了）"),), "I",
            refs="williams2009",
            decomposition=("intensity = work per byte moved: FLOPs ÷ bytes read from and written to memory",),
            decomposition_zh=("算术强度 = 每搬运一个字节做的计算：FLOPs ÷ 显存读写字节数",),
            takeaway="intensity alone decides which roof applies: compare it with the GPU's ridge point before "
                     "optimising anything.",
            takeaway_zh="只看算术强度就知道受哪条线限制：优化之前先把它和 GPU 的拐点比一比。",
            example={"flops": 100e9, "bytes": 1e9},
            meaning_zh="每字节显存访问对应的 FLOPs"),
    Formula("ridge_point", (PEAK, BW), "peak_flops/bandwidth", "intensity",
            "intensity where the roofline turns from memory-bound to compute-bound", "R§3.2, C§5.2",
            (Misconception("sparse", "used the 2:4-sparse TFLOPS figure (twice the dense one)",
                           "2*peak_flops/bandwidth", "用了 2:4 稀疏的 TFLOPS（是稠密算力的两倍）"),
             Misconception("units_1000", "mixed TFLOPS with GB/s (off by 1000)", "1000*peak_flops/bandwidth",
                           "把 TFLOPS 和 GB/s 混着用了（差 1000 倍）"),
             Misconception("units_0001", "mixed GFLOPS with TB/s (off by 1000)", "peak_flops/bandwidth/1000",
                           "把 GFLOPS 和 TB/s 混着用了（差 1000 倍）"),
             Misconception("inverted", "divided bandwidth by FLOPS", "bandwidth/peak_flops",
                           "用带宽除以 FLOPS（除反了）")), "I*",
            refs="williams2009",
            decomposition=("I* = F_peak / BW: the intensity at which moving the bytes takes as long as the math; "
                           "below it the slanted (memory) roof limits, above it the flat (compute) roof",),
            decomposition_zh=("I* = F_peak / BW：搬运数据与计算耗时恰好相等时的算术强度；低于它受斜线（显存带宽）限制，"
                              "高于它受水平线（峰值算力）限制",),
            takeaway="a modern GPU needs {result} to be compute-bound: most kernels other than big GEMMs sit below "
                     "the ridge and are memory-bound.",
            takeaway_zh="现代 GPU 要 {result} 才能算力受限：除大 GEMM 以外，多数算子都在拐点左侧，访存受限。",
            example={"peak_flops": 1000e12, "bandwidth": 4e12},
            meaning_zh="拐点算术强度：Roofline 从访存受限转为算力受限的那一点"),
    Formula("attainable_flops", (Input("intensity", "intensity", "arithmetic intensity of the kernel", "I"), PEAK, BW),
            "min(peak_flops, intensity*bandwidth)", "flop_rate",
            "the roofline: the most FLOP/s a kernel of this intensity can reach", "R§3.1",
            (Misconception("peak", "quoted the peak: the kernel is under the slanted roof", "peak_flops",
                           "直接给了算力峰值：这个算子落在斜线（访存受限）那一段"),
             Misconception("slope", "used I × BW although that is above the flat roof", "intensity*bandwidth",
                           "用了 I × BW，但它已经超过了水平线（算力峰值）")),
            "P",
            refs="williams2009",
            decomposition=("the roofline: a kernel reaches at most min(peak, I × BW): intensity times bandwidth on the "
                           "slanted roof, the peak on the flat one",),
            decomposition_zh=("Roofline：算子最多达到 min(峰值, I × BW)：斜线段是算术强度 × 带宽，水平段是峰值",),
            parts=(Part("slope", "I·BW", "intensity*bandwidth", "flop_rate", "the memory roof at this intensity",
                        "这个算术强度下的带宽上限"),),
            via="min(peak_flops, slope)",
            takeaway="check which roof applies before quoting a number: below the ridge the answer is I × BW, never "
                     "the peak.",
            takeaway_zh="先判断落在哪条线上再报数：在拐点左侧答案是 I × BW，绝不是峰值。",
            example={"intensity": 50, "peak_flops": 1000e12, "bandwidth": 4e12},
            meaning_zh="Roofline：该算术强度的算子最多能达到的 FLOP/s"),
    Formula("gemm_intensity", (Input("m", "count", "rows of A and C", "M"), Input("n", "count", "columns of B and C", "N"),
                               Input("k", "count", "inner dimension", "K"), BPE),
            "2*m*n*k/(bytes_per_elem*(m*k + k*n + m*n))", "intensity",
            "arithmetic intensity of C = A·B (A: M×K, B: K×N), each matrix moved once", "R§4.1",
            (Misconception("no_factor_2", "counted a multiply-add as 1 FLOP, not 2",
                           "m*n*k/(bytes_per_elem*(m*k + k*n + m*n))", "把一次乘加算成了 1 FLOP，应为 2"),
             Misconception("elements", "divided by elements, not bytes", "2*m*n*k/(m*k + k*n + m*n)", "除以的是元素个数，不是字节数"),
             Misconception("no_output", "left out writing C", "2*m*n*k/(bytes_per_elem*(m*k + k*n))",
                           "漏了写回 C 的访存")), "I_GEMM",
            refs="williams2009",
            decomposition=("C = A·B does M·N·K multiply-adds (2 FLOPs each); A (M×K), B (K×N) and C (M×N) each "
                           "cross memory once",),
            decomposition_zh=("C = A·B 共做 M·N·K 次乘加（每次 2 FLOPs）；A（M×K）、B（K×N）、C（M×N）各经过显存一次",),
            parts=(Part("work", "FLOPs", "2*m*n*k", "flop", "2 FLOPs per multiply-add", "每次乘加 2 FLOPs"),
                   Part("traffic", "Bytes", "bytes_per_elem*(m*k + k*n + m*n)", "bytes",
                        "read A and B, write C", "读 A、B，写 C")),
            via="work/traffic",
            takeaway="intensity grows with the smallest dimension: a GEMM with a small M (decode at batch 1 is a GEMV) "
                     "is memory-bound, big square GEMMs are compute-bound.",
            takeaway_zh="算术强度随最小的那一维增长：M 很小的 GEMM（batch 为 1 的 decode 就是 GEMV）访存受限，"
                        "大方阵 GEMM 则算力受限。",
            example={"m": 4096, "n": 4096, "k": 4096, "bytes_per_elem": 2},
            meaning_zh="C = A·B（A：M×K，B：K×N）的算术强度，每个矩阵只搬运一次"),
    Formula("param_count", (Input("layers", "count", "transformer layers", "L"),
                            Input("d_model", "count", "hidden size", "d"),
                            Input("n_heads", "count", "query heads", "n_h"), N_KV, D_HEAD,
                            Input("ffn", "count", "FFN (MLP) inner size", "d_ffn"),
                            Input("vocab", "count", "vocabulary size", "V")),
            "layers*(d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model"
            " + 3*d_model*ffn) + 2*vocab*d_model", "count",
            "parameters of a Llama-style decoder (gated MLP, untied embeddings, norms ignored)",
            "beyond the seeds (standard warm-up)",
            (Misconception("mha_kv", "gave K and V as many heads as Q (ignored GQA)",
                           "layers*(4*d_model*n_heads*d_head + 3*d_model*ffn) + 2*vocab*d_model",
                           "让 K、V 的头数和 Q 一样（忽略了 GQA）"),
             Misconception("two_matrix_mlp", "used a 2-matrix MLP instead of the gated 3-matrix one",
                           "layers*(d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model"
                           " + 2*d_model*ffn) + 2*vocab*d_model", "用了 2 个矩阵的 MLP，而不是带门控的 3 矩阵 MLP"),
             Misconception("no_embeddings", "left out the embedding and output matrices",
                           "layers*(d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model"
                           " + 3*d_model*ffn)", "漏了 embedding 和输出层矩阵")), "Φ",
            refs="touvron2023, ainslie2023",
            decomposition=("per layer: attention Q (d·n_h·d_head), K and V (2·d·n_kv·d_head), output (n_h·d_head·d); "
                           "gated MLP 3·d·d_ffn (gate, up, down); plus embedding and output matrices 2·V·d",),
            decomposition_zh=("每层：注意力 Q（d·n_h·d_head）、K 和 V（2·d·n_kv·d_head）、输出投影（n_h·d_head·d）；"
                              "带门控的 MLP 3·d·d_ffn（gate、up、down）；再加词嵌入和输出层矩阵 2·V·d",),
            parts=(Part("attn", "P_attn", "d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model",
                        "count", "attention weights of one layer", "一层的注意力权重"),
                   Part("mlp", "P_mlp", "3*d_model*ffn", "count", "MLP weights of one layer", "一层的 MLP 权重"),
                   Part("emb", "P_emb", "2*vocab*d_model", "count", "embedding and output matrices",
                        "词嵌入和输出层矩阵")),
            via="layers*(attn + mlp) + emb",
            takeaway="most parameters sit in the MLP (3·d·d_ffn per layer); GQA shrinks only K and V.",
            takeaway_zh="大部分参数在 MLP 里（每层 3·d·d_ffn）；GQA 只缩小了 K 和 V。",
            example={"layers": 32, "d_model": 4096, "n_heads": 32, "n_kv_heads": 8, "d_head": 128, "ffn": 14336,
                     "vocab": 128000},
            meaning_zh="Llama 式解码器的参数量（门控 MLP，不共享词嵌入，忽略归一化层）"),
    # -------------------------------------------------------------- pipeline (C§6)
    Formula("bubble_1f1b", (P_STAGES, M_MICRO), "(p-1)/(m+p-1)", "ratio",
            "1F1B pipeline bubble as a share of total time", "C§6.1",
            (Misconception("ideal_time", "used (P−1)/m, the bubble relative to ideal time (Narayanan et al.)",
                           "(p-1)/m", "用了 (P−1)/m，那是气泡相对理想时间的比例（Narayanan 等）"),), "bubble",
            refs="narayanan2021, huang2019",
            decomposition=("filling and draining the pipeline costs P−1 micro-batch slots; the useful work is m slots: "
                           "bubble share = (P−1)/(m+P−1)",),
            decomposition_zh=("流水线的填充和排空占 P−1 个微批次的时隙，有效工作占 m 个：气泡率 = (P−1)/(m+P−1)",),
            simplification=("for m ≫ P the bubble ≈ (P−1)/m: more micro-batches per step shrink it",),
            simplification_zh=("m ≫ P 时气泡率 ≈ (P−1)/m：每步的微批次越多，气泡越小",),
            takeaway="keep m at least about 4× P to push the bubble under ~20 %; interleaving divides it further.",
            takeaway_zh="m 至少取 P 的 4 倍左右，气泡率才能压到约 20 % 以下；交错调度还能再降。",
            example={"p": 4, "m": 16},
            meaning_zh="1F1B 流水线气泡占总时间的比例"),
    Formula("bubble_interleaved", (P_STAGES, M_MICRO, Input("v", "count", "virtual stages per GPU", "v")),
            "(p-1)/(v*m+p-1)", "ratio", "interleaved 1F1B bubble as a share of total time", "C§6.2",
            (Misconception("no_v", "left out the virtual stages v (plain 1F1B)", "(p-1)/(m+p-1)",
                           "漏了虚拟阶段数 v（当成了普通 1F1B）"),
             Misconception("ideal_time", "used (P−1)/(v·m), relative to ideal time", "(p-1)/(v*m)",
                           "用了 (P−1)/(v·m)，那是相对理想时间的比例")), "bubble",
            refs="narayanan2021",
            decomposition=("each GPU holds v smaller stages, so filling and draining take P−1 slots of 1/v the size: "
                           "bubble = (P−1)/(v·m + P−1)",),
            decomposition_zh=("每张 GPU 放 v 个更小的阶段，填充和排空仍是 P−1 个时隙，但每个只有 1/v 大小："
                              "气泡率 = (P−1)/(v·m + P−1)",),
            simplification=("for v·m ≫ P the bubble ≈ (P−1)/(v·m): v times smaller than plain 1F1B",),
            simplification_zh=("v·m ≫ P 时气泡率 ≈ (P−1)/(v·m)：是普通 1F1B 的 1/v",),
            takeaway="interleaving cuts the bubble about v-fold, paid for with v times more point-to-point messages.",
            takeaway_zh="交错调度把气泡缩小约 v 倍，代价是点对点通信次数多 v 倍。",
            example={"p": 4, "m": 8, "v": 2},
            meaning_zh="交错式 1F1B 的气泡占总时间的比例"),
    Formula("bubble_asymmetric", (Input("stage_times", "list:time", "forward time of each stage", "t"), M_MICRO),
            "1 - m*sum(stage_times)/(len(stage_times)*(sum(stage_times) + (m-1)*max(stage_times)))", "ratio",
            "pipeline bubble when stages take different times (P = number of stages)", "C§6.3",
            (Misconception("uniform", "used the uniform 1F1B formula (P−1)/(m+P−1)",
                           "(len(stage_times)-1)/(m+len(stage_times)-1)", "用了各阶段耗时相同时的 1F1B 公式 (P−1)/(m+P−1)"),
             Misconception("limit", "gave the m → ∞ limit 1 − mean(t)/max(t)",
                           "1 - sum(stage_times)/(len(stage_times)*max(stage_times))",
                           "给出的是 m → ∞ 时的极限 1 − mean(t)/max(t)")), "bubble",
            refs="narayanan2021",
            decomposition=("the slowest stage sets the beat: a step takes sum(t) to fill and drain plus (m−1)·max(t) in "
                           "steady state; the stages do m·sum(t) of useful work out of P times that",),
            decomposition_zh=("最慢的阶段决定节拍：一步耗时 = 填充排空 sum(t) + 稳态 (m−1)·max(t)；各阶段有效工作共 "
                              "m·sum(t)，占 P 倍步长中的一部分",),
            parts=(Part("t_step", "T_step", "sum(stage_times) + (m-1)*max(stage_times)", "count",
                        "time of one step, in the unit of t", "一步的时间，与 t 同单位"),
                   Part("busy", "m·Σt", "m*sum(stage_times)", "count", "useful work of all stages, in the unit of t",
                        "所有阶段的有效工作，与 t 同单位")),
            via="1 - busy/(len(stage_times)*t_step)",
            simplification=("as m → ∞ the bubble tends to 1 − mean(t)/max(t): uneven stages waste time however many "
                            "micro-batches there are",),
            simplification_zh=("m → ∞ 时气泡率趋于 1 − mean(t)/max(t)：阶段不均衡，再多微批次也有浪费",),
            takeaway="balance the stages before adding micro-batches: an uneven split leaves a bubble no m removes.",
            takeaway_zh="先平衡各阶段，再加微批次：切分不均留下的气泡，m 再大也消除不了。",
            example={"stage_times": (10e-3, 10e-3, 10e-3, 20e-3), "m": 8},
            meaning_zh="各阶段耗时不同时的流水线气泡率（P = 阶段数）"),
    # ---------------------------------------------------- added by the question bank (C§4, R§5.4)
    Formula("max_batch_fit", (Input("gpu_bytes", "bytes", "memory of the GPU(s)", "M_gpu"),
                              Input("weight_bytes", "bytes", "bytes of the weights", "W"),
                              Input("kv_bytes_per_seq", "bytes", "KV cache bytes of one full sequence", "KV_seq")),
            "floor((gpu_bytes - weight_bytes)/kv_bytes_per_seq)", "count",
            "largest batch whose KV cache fits in memory next to the weights (activations ignored)", "R§5.4, C§4",
            (Misconception("no_weights", "forgot that the weights take memory too",
                           "floor(gpu_bytes/kv_bytes_per_seq)", "忘了权重也要占显存"),
             Misconception("rounded_up", "rounded up: the last sequence would not fit",
                           "ceil((gpu_bytes - weight_bytes)/kv_bytes_per_seq)", "向上取整了：最后一条序列放不下")), "B_max",
            refs="pope2022",
            decomposition=("the weights take W; every sequence needs its full KV cache; round down: a partial sequence "
                           "does not fit",),
            decomposition_zh=("权重占 W；每条序列需要完整的 KV Cache；向下取整：放不下一整条就不算",),
            parts=(Part("free", "M_gpu − W", "gpu_bytes - weight_bytes", "bytes", "memory left for the KV cache",
                        "留给 KV Cache 的显存"),),
            takeaway="free memory ÷ KV per sequence bounds the batch: the KV cache, not FLOPs, sets how many requests a "
                     "server runs at once.",
            takeaway_zh="空闲显存 ÷ 每条序列的 KV 决定 batch 上限：决定服务器并发的是 KV Cache，而不是算力。",
            example={"gpu_bytes": 80e9, "weight_bytes": 16e9, "kv_bytes_per_seq": 2e9},
            meaning_zh="在权重之外 KV Cache 还放得下的最大 batch（忽略激活）"),
    # ---------------------------------------------------- added by the question bank (C§1, C§6)
    Formula("micro_batches_for_bubble", (P_STAGES, Input("target", "ratio", "largest acceptable bubble "
                                                         "(share of total time)", "target")),
            "ceil((p-1)*(1/target - 1))", "count",
            "fewest micro-batches m with 1F1B bubble (P−1)/(m+P−1) ≤ target", "C§6.1",
            (Misconception("ideal_time", "solved (P−1)/m ≤ target (bubble over ideal time, not total time)",
                           "ceil((p-1)/target)", "解的是 (P−1)/m ≤ 目标（气泡相对理想时间，而不是总时间）"),
             Misconception("rounded_down", "rounded down: the bubble would exceed the target",
                           "floor((p-1)*(1/target - 1))", "向下取整了：气泡率会超过目标")), "m_min",
            refs="narayanan2021",
            decomposition=("solve (P−1)/(m+P−1) ≤ target for m: m ≥ (P−1)(1/target − 1), rounded up",),
            decomposition_zh=("解 (P−1)/(m+P−1) ≤ 目标：m ≥ (P−1)(1/目标 − 1)，向上取整",),
            parts=(Part("exact", "m_exact", "(p-1)*(1/target - 1)", "count", "before rounding up", "向上取整前"),),
            takeaway="the bubble falls only like 1/m: halving the target roughly doubles the micro-batches, each "
                     "smaller for a fixed global batch.",
            takeaway_zh="气泡率只按 1/m 下降：目标减半，微批次数约翻倍；全局 batch 不变时每个微批次更小。",
            example={"p": 8, "target": 0.1},
            meaning_zh="使 1F1B 气泡率 (P−1)/(m+P−1) ≤ 目标的最少微批次数"),
    # ---------------------------------------------- added by the question bank (C§1.3, C§2, C§3)
    Formula("whole_model_activation_bytes", (LAYERS, Input("layer_bytes", "bytes", "activation memory of one layer",
                                                           "M_act")),
            "layers*layer_bytes", "bytes", "activation memory of L identical layers from the per-layer figure",
            "C§1.3", (Misconception("one_layer", "gave one layer, not all L layers", "layer_bytes",
                                    "只给了一层，没有乘以 L 层"),
                      # when the problem gives s, b, h, a (extras), the per-layer slips show up L times over
                      Misconception("linear_only", "kept only the 34sbh term (dropped 5as²b)", "layers*34*s*b*h",
                                    "只保留了 34sbh 项（漏了 5as²b）"),
                      Misconception("quadratic_only", "kept only the 5as²b attention term", "layers*5*a*s*s*b",
                                    "只保留了注意力的 5as²b 项")), "M_act_total",
            refs="korthikanti2022",
            decomposition=("the layers are identical: L × the activations of one layer",),
            decomposition_zh=("各层完全相同：L × 一层的激活值显存",),
            takeaway="activations scale with L, s and b: for long sequences they dwarf the weights, hence recomputation "
                     "and sequence parallelism.",
            takeaway_zh="激活值显存随 L、s、b 增长：长序列时远超权重，所以要重计算和序列并行。",
            example={"layers": 32, "layer_bytes": 2e9},
            meaning_zh="由每层激活算出 L 个相同层的激活值显存"),
    Formula("tp_allreduce_bytes_layer", (S, B, H, BPE, Input("n_tp", "count", "tensor-parallel GPUs", "N_tp")),
            "2*2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem", "bytes",
            "bytes each GPU sends per layer in the forward pass with Megatron tensor parallelism: two ring "
            "AllReduces (after attention and after the MLP) of the s·b·h activation", "C§2",
            (Misconception("one_allreduce", "counted one AllReduce per layer (or one ring pass); attention and MLP "
                           "each end in an AllReduce of 2(N_tp−1)/N_tp × M",
                           "2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem",
                           "每层只算了一次 AllReduce（或只算了一轮 ring）；注意力和 MLP 结束时各有一次 2(N_tp−1)/N_tp × M 的 AllReduce"),
             Misconception("with_backward", "added the backward pass's two AllReduces; only the forward pass was asked",
                           "4*2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem", "把反向的两次 AllReduce 也加上了；题目只问前向")), "V_TP/layer",
            refs="shoeybi2019, patarasuk2009",
            decomposition=("Megatron TP splits attention and the MLP over N_tp GPUs; each ends in a ring AllReduce of "
                           "the s·b·h activation: two per layer in the forward pass",),
            decomposition_zh=("Megatron 张量并行把注意力和 MLP 切到 N_tp 张 GPU 上；两者结束时各对 s·b·h 的激活做一次 "
                              "Ring AllReduce：每层前向两次",),
            parts=(Part("msg", "M", "s*b*h*bytes_per_elem", "bytes", "one activation tensor s·b·h",
                        "一个 s·b·h 激活张量"),
                   Part("per_ar", "V_AR", "2*(n_tp-1)/n_tp*msg", "bytes", "one ring AllReduce of it",
                        "对它做一次 Ring AllReduce")),
            via="2*per_ar",
            takeaway="tensor parallelism talks twice per layer on the critical path: keep it inside a node (NVLink) "
                     "and use data or pipeline parallelism across nodes.",
            takeaway_zh="张量并行每层在关键路径上通信两次：把它放在节点内（NVLink），跨节点用数据并行或流水线并行。",
            example={"s": 2048, "b": 1, "h": 4096, "bytes_per_elem": 2, "n_tp": 8},
            meaning_zh="Megatron 张量并行下每张 GPU 每层前向发送的字节数"),
    Formula("comm_bytes_zero3_step", (PHI, Input("bytes_per_param", "bytes", "bytes per weight / gradient value "
                                                 "(bf16 = 2)", "bytes"), N_RANKS),
            "3*(n-1)/n*bytes_per_param*phi", "bytes",
            "bytes each GPU sends per ZeRO-3 step: AllGather weights (forward), AllGather again (backward), "
            "ReduceScatter gradients; 1.5× DDP's AllReduce", "C§2",
            (Misconception("one_allgather", "gathered the weights once (that is DDP's volume); ZeRO-3 frees them "
                           "after the forward pass and gathers them again for the backward pass",
                           "2*(n-1)/n*bytes_per_param*phi",
                           "只 AllGather 了一次权重（那是 DDP 的通信量）；ZeRO-3 前向后会释放权重，反向时要再 AllGather 一次"),
             Misconception("allreduce_each", "counted each collective as an AllReduce (factor 2)",
                           "6*(n-1)/n*bytes_per_param*phi", "把每个集合通信都当成了 AllReduce（多了因子 2）")), "V_ZeRO-3",
            refs="rajbhandari2020, patarasuk2009",
            decomposition=("AllGather the weights for forward, AllGather them again for backward, ReduceScatter the "
                           "gradients: three ring passes of (N−1)/N × bytes·Φ",),
            decomposition_zh=("前向 AllGather 权重，反向再 AllGather 一次，最后 ReduceScatter 梯度：三轮 ring，每轮 "
                              "(N−1)/N × bytes·Φ",),
            parts=(Part("full", "bytes·Φ", "bytes_per_param*phi", "bytes", "the full weights (or gradients)",
                        "完整权重（或梯度）"),
                   Part("one", "V_pass", "(n-1)/n*full", "bytes", "one ring pass", "一轮 ring")),
            via="3*one",
            simplification=("(N−1)/N → 1 for large N: about 3 × bytes·Φ per step, against 2 × bytes·Φ for DDP",),
            simplification_zh=("N 很大时 (N−1)/N → 1：每步约 3 × bytes·Φ，DDP 是 2 × bytes·Φ",),
            takeaway="ZeRO-3 costs 1.5× the traffic of data parallelism (three passes instead of two): the price of "
                     "sharding the weights.",
            takeaway_zh="ZeRO-3 的通信量是数据并行的 1.5 倍（三轮而不是两轮）：这是切分权重的代价。",
            example={"phi": 7e9, "bytes_per_param": 2, "n": 8},
            meaning_zh="ZeRO-3 每步每张 GPU 发送的字节数"),
    Formula("mfu_from_step_time", (PHI, Input("global_batch", "count", "sequences per optimizer step (all GPUs)",
                                              "B_global"), S,
                                   Input("step_time", "time", "wall-clock time of one training step", "T_step"),
                                   N_GPUS, PEAK),
            "6*phi*global_batch*s/(step_time*n_gpus*peak_flops)", "ratio",
            "MFU from a step time: tokens per step B_global·s over T_step gives tokens/s, times 6Φ over N × peak",
            "C§3.2",
            (Misconception("forward_only", "used 2Φ (forward only) instead of 6Φ",
                           "2*phi*global_batch*s/(step_time*n_gpus*peak_flops)", "用了 2Φ（只算前向），应为 6Φ"),
             Misconception("hfu", "counted recomputation (8Φ): that is HFU",
                           "8*phi*global_batch*s/(step_time*n_gpus*peak_flops)", "把重计算也算进去了（8Φ）：那是 HFU"),
             Misconception("sequences", "counted sequences, not tokens (forgot × s)",
                           "6*phi*global_batch/(step_time*n_gpus*peak_flops)", "算的是序列数，不是 token 数（漏了 × s）"),
             Misconception("one_gpu", "forgot to divide by the number of GPUs",
                           "6*phi*global_batch*s/(step_time*peak_flops)", "忘了除以 GPU 数")), "MFU",
            refs="chowdhery2022",
            decomposition=("tokens per second = B_global · s / T_step; useful FLOP/s = tokens/s × 6Φ; divide by N × peak",),
            decomposition_zh=("每秒 token 数 = B_global · s / T_step；有效算力 = tokens/s × 6Φ；再除以 N × 峰值",),
            parts=(Part("tps", "tok/s", "global_batch*s/step_time", "tok_rate", "tokens per second", "每秒 token 数"),
                   Part("achieved", "tok/s·6Φ", "6*phi*tps", "flop_rate", "model FLOP/s achieved", "实际达到的模型算力"),
                   Part("avail", "N·F_peak", "n_gpus*peak_flops", "flop_rate", "peak of all the GPUs", "全部 GPU 的峰值")),
            via="achieved/avail",
            takeaway="MFU from a step time is the number to quote for a training run: published large dense runs reach "
                     "35-55 %.",
            takeaway_zh="由单步耗时算出的 MFU 是衡量一次训练的标准指标：公开的大规模稠密训练约 35-55 %。",
            example={"phi": 7e9, "global_batch": 512, "s": 4096, "step_time": 10, "n_gpus": 128,
                     "peak_flops": 1000e12},
            meaning_zh="由单步耗时求 MFU：每步 token 数 B_global·s 除以 T_step 得 tokens/s，乘 6Φ 再除以 N × 峰值"),
    # ------------------------------------ serving, MoE, quantisation, attention IO (bank part 2, issue #15)
    # Beyond the spec's part-2 table: what the serving / MoE / FlashAttention / fusion families need.
    Formula("attention_hbm_bytes", (Input("n", "count", "sequence length (tokens)", "N"),
                                    Input("d", "count", "head dimension", "d"), BPE),
            "bytes_per_elem*(4*n*d + 4*n*n)", "bytes",
            "HBM traffic of standard (unfused) attention for one head: read Q, K (2Nd), write S = QKᵀ (N²), read S "
            "and write P = softmax(S) (2N²), read P and V (N² + Nd), write O (Nd)",
            "R§4.3",
            (Misconception("no_scores", "left out the N×N matrices S and P, which standard attention writes to HBM "
                           "and reads back", "4*n*d*bytes_per_elem",
                           "漏了 N×N 的 S 和 P 矩阵：标准注意力会把它们写回显存再读出来"),
             Misconception("scores_once", "wrote S and P but never read them back (count each N×N matrix twice)",
                           "bytes_per_elem*(4*n*d + 2*n*n)", "只算了 S 和 P 的写入，没算读回（每个 N×N 矩阵要算两次）"),
             Misconception("elements", "counted elements, not bytes", "4*n*d + 4*n*n", "算的是元素个数，不是字节数")),
            "HBM_std",
            refs="dao2022",
            decomposition=("the N×N matrices make two round trips: write S = QKᵀ, read S for the softmax, write "
                           "P = softmax(S), read P for PV: 4 × N² elements",
                           "the N×d matrices cross once: read Q and K (for S), read V (for PV), write O: 4 × N × d "
                           "elements; times the bytes per element"),
            decomposition_zh=("N×N 矩阵在显存里往返两次：写 S = QKᵀ，softmax 读 S，写 P = softmax(S)，PV 读 P：4 × N² 个元素",
                              "N×d 矩阵各进出一次：读 Q、K（算 S），读 V（算 PV），写 O：4 × N × d 个元素；元素数再乘每元素字节数"),
            parts=(Part("qkvo", "Bytes(Q,K,V,O)", "4*n*d*bytes_per_elem", "bytes", "read Q, K, V; write O",
                        "读 Q、K、V，写 O"),
                   Part("scores", "Bytes(S,P)", "4*n*n*bytes_per_elem", "bytes", "write S, read S, write P, read P",
                        "写 S、读 S、写 P、读 P")),
            via="qkvo + scores",
            simplification=("the N² terms are N/d times the Nd terms: {scores} of the {result} are S and P; for N ≫ d, "
                            "HBM_std ≈ 4N² × bytes, quadratic in N",),
            simplification_zh=("N² 项是 Nd 项的 N/d 倍：{result} 里有 {scores} 是 S 和 P；N ≫ d 时 "
                               "HBM_std ≈ 4N² × bytes，随 N 平方增长",),
            takeaway="standard attention's traffic is quadratic in N because the N×N attention scores (S, then P) make "
                     "two round trips through HBM: at long context they are nearly all of it, and they are what "
                     "FlashAttention removes.",
            takeaway_zh="标准注意力的访存量随 N 平方增长，因为 N×N 的注意力分数（S 和 P）要在显存里往返两次：长上下文时"
                        "访存几乎全是它们，FlashAttention 省掉的也正是这部分。",
            example={"n": 4096, "d": 128, "bytes_per_elem": 2},
            meaning_zh="标准（未融合）注意力单个头的显存访存量：读 Q、K（2Nd），写 S = QKᵀ（N²），读 S、写 P = softmax(S)"
                       "（2N²），读 P 和 V（N² + Nd），写 O（Nd）"),
    Formula("flash_attention_hbm_bytes", (Input("n", "count", "sequence length (tokens)", "N"),
                                          Input("d", "count", "head dimension", "d"),
                                          Input("sram_bytes", "bytes", "on-chip SRAM for the tiles", "M",
                                                "用于分块的片上 SRAM"), BPE),
            "2*n*d*bytes_per_elem*(1 + 2*n*d*bytes_per_elem/sram_bytes)", "bytes",
            "HBM traffic of FlashAttention (forward, one head, FlashAttention-2 loop order): a B × d block of Q fills "
            "half of the SRAM M (the other half holds the K and V tiles streamed past it), B = M / (2·d·bytes); Q is "
            "read and O written once (2Nd), K and V are read once per Q block, N/B times (2Nd · N/B); the O "
            "accumulator and softmax statistics stay on chip and no N×N matrix touches HBM",
            "R§4.3",
            (Misconception("kv_once", "read K and V only once: that needs all of K and V on chip; they are re-read "
                           "for every Q block", "4*n*d*bytes_per_elem",
                           "K 和 V 只算读了一次：那得整个放进片上 SRAM；实际每个 Q 块都要重读一遍"),
             Misconception("standard", "used standard attention's traffic (the N×N matrices in HBM)",
                           "bytes_per_elem*(4*n*d + 4*n*n)", "用了标准注意力的访存量（N×N 矩阵进出显存）")),
            "HBM_flash",
            refs="dao2022, dao2023",
            decomposition=("a block of B rows of Q (B × d × bytes) takes half of the SRAM M and the K, V tiles streamed "
                           "past it the other half: B = M / (2 × d × bytes); Q is read and O written once: 2 × N × d "
                           "elements",
                           "each of the N/B Q blocks reads all of K and V once: 2 × N × d elements per pass; S and P "
                           "live only in SRAM and never touch HBM"),
            decomposition_zh=("B 行的 Q 块（B × d × bytes）占 SRAM M 的一半，流过的 K、V 分块占另一半：B = M / (2 × d × bytes)；"
                              "Q 读一次、O 写一次：2 × N × d 个元素",
                              "N/B 个 Q 块，每块都把整个 K 和 V 读一遍：每遍 2 × N × d 个元素；S 和 P 只在 SRAM 里，从不进显存"),
            parts=(Part("block", "B", "sram_bytes/(2*d*bytes_per_elem)", "count", "rows of Q per block",
                        "每个 Q 块的行数"),
                   Part("passes", "N/B", "n/block", "count", "Q blocks = passes over K and V", "Q 块数 = K、V 被读的遍数"),
                   Part("qo", "Bytes(Q,O)", "2*n*d*bytes_per_elem", "bytes", "read Q once, write O once",
                        "Q 读一次、O 写一次"),
                   Part("kv", "Bytes(K,V)", "2*n*d*bytes_per_elem*passes", "bytes", "read K and V once per Q block",
                        "每个 Q 块读一遍 K 和 V"),
                   Part("gain", "2B/d", "2*block/d", "count",
                        "standard attention's 4N² × bytes of S, P ÷ these K, V re-reads",
                        "标准注意力的 S、P 字节数 4N² × bytes ÷ 这里重读 K、V 的字节数")),
            via="qo + kv",
            simplification=("HBM_flash = 2Nd × bytes × (1 + N/B) with N/B = 2Nd × bytes / M: its only N² term is the K, "
                            "V re-reads, 4N²d² × bytes² / M (the paper's Θ(N²d²/M)); standard attention's is 4N² × "
                            "bytes, M / (d² × bytes) = 2B/d = {gain} times larger, and a larger SRAM widens the gap",),
            simplification_zh=("HBM_flash = 2Nd × bytes × (1 + N/B)，其中 N/B = 2Nd × bytes / M：唯一的 N² 项是重读 K、V，"
                               "4N²d² × bytes² / M（即论文中的 Θ(N²d²/M)）；标准注意力的 N² 项是 4N² × bytes，"
                               "是它的 M / (d² × bytes) = 2B/d = {gain} 倍，SRAM 越大差距越大",),
            takeaway="FlashAttention never writes S or P: its only quadratic traffic is re-reading K and V once per Q "
                     "block, so a bigger SRAM tile (a larger B) cuts it, to about d / (2B) of standard attention's at long N.",
            takeaway_zh="FlashAttention 从不写 S 和 P：它唯一随 N 平方增长的访存是每个 Q 块重读一遍 K、V，所以 SRAM 分块越大"
                        "（B 越大）访存越少，长序列时约为标准注意力的 d / (2B)。",
            example={"n": 4096, "d": 64, "sram_bytes": 65536, "bytes_per_elem": 2},
            meaning_zh="FlashAttention 的显存访存量（前向、单个头、FlashAttention-2 的循环顺序）：B × d 的 Q 块占 SRAM M 的一半"
                       "（另一半放流过的 K、V 分块），B = M / (2·d·bytes)；Q 读一次、O 写一次（2Nd），每个 Q 块读一遍 K 和 V，"
                       "共 N/B 遍（2Nd · N/B）；O 的累加器和 softmax 统计量留在片上，N×N 矩阵从不进显存"),
    Formula("attention_intensity", (Input("n", "count", "sequence length (tokens)", "N"),
                                    Input("d", "count", "head dimension", "d"), BPE),
            "n*d/(bytes_per_elem*(n + d))", "intensity",
            "arithmetic intensity of standard attention for one head: 4N²d FLOPs (QKᵀ and PV, softmax ignored) over "
            "its HBM traffic bytes × (4Nd + 4N²); it grows with N but levels off at d / bytes",
            "R§4.3",
            (Misconception("no_scores_traffic", "assumed the N×N matrices never touch HBM (that is FlashAttention)",
                           "n/bytes_per_elem", "假设 N×N 矩阵不进出显存（那是 FlashAttention）"),
             Misconception("qk_only", "counted only the FLOPs of QKᵀ, not those of PV",
                           "n*d/(2*bytes_per_elem*(n + d))", "只算了 QKᵀ 的 FLOPs，漏了 PV 的")),
            "I_std-attn",
            refs="dao2022",
            decomposition=("FLOPs: QKᵀ and PV each do N × N × d multiply-adds, 2 FLOPs each: 4N²d; bytes: standard "
                           "attention's traffic, bytes × (4Nd + 4N²) = 4N × bytes × (N + d)",
                           "simplify first: 4N²d / (4N × bytes × (N + d)) = N × d / (bytes × (N + d))"),
            decomposition_zh=("FLOPs：QKᵀ 和 PV 各做 N × N × d 次乘加，每次 2 FLOPs：4N²d；字节数：标准注意力的访存量 "
                              "bytes × (4Nd + 4N²) = 4N × bytes × (N + d)",
                              "先化简：4N²d / (4N × bytes × (N + d)) = N × d / (bytes × (N + d))"),
            parts=(Part("work", "FLOPs", "4*n*n*d", "flop", "QKᵀ and PV", "QKᵀ 与 PV"),
                   Part("traffic", "Bytes", "bytes_per_elem*(4*n*d + 4*n*n)", "bytes", "Q, K, V, O and twice S and P",
                        "Q、K、V、O，以及两次 S、P"),
                   Part("cap", "I_max", "d/bytes_per_elem", "intensity", "the ceiling as N grows",
                        "N 增大时的上限")),
            via="work/traffic",
            simplification=("I = (d / bytes) × N / (N + d): it rises with N but never passes d / bytes = {cap}, because "
                            "the N×N traffic grows as fast as the N² FLOPs",),
            simplification_zh=("I = (d / bytes) × N / (N + d)：随 N 增大，但永远不超过 d / bytes = {cap}，因为 N×N 矩阵的"
                               "访存和 N² 的 FLOPs 增长得一样快",),
            takeaway="however long the sequence, standard attention stays under d / bytes ({cap} here): in bf16/fp16 "
                     "that is at most 64 FLOP/B, under every tensor-core ridge (about 140-420 FLOP/B): memory-bound at "
                     "any N.",
            takeaway_zh="序列再长，标准注意力的算术强度也不超过 d / bytes（这里是 {cap}）：bf16/fp16 下最多 64 FLOP/B，"
                        "低于所有 Tensor Core 的拐点（约 140-420 FLOP/B），任何 N 下都是访存受限。",
            example={"n": 4096, "d": 128, "bytes_per_elem": 2},
            meaning_zh="标准注意力单个头的算术强度：4N²d FLOPs（QKᵀ 与 PV，忽略 softmax）除以显存访存量 "
                       "bytes × (4Nd + 4N²)；随 N 增大，但趋于 d / bytes"),
    Formula("fusion_bytes_saved", (Input("n_elem", "count", "elements of the tensor", "n", "张量的元素数"),
                                   Input("kernels", "count", "element-wise kernels in the chain", "k",
                                         "依次执行的逐元素 kernel 数"), BPE),
            "2*(kernels - 1)*n_elem*bytes_per_elem", "bytes",
            "HBM traffic saved by fusing a chain of k one-input element-wise kernels into one: unfused, every kernel "
            "reads its input and writes its output (2k passes over the tensor); fused, the input is read once and the "
            "result written once (2 passes)",
            "R§3.3, R§5.2",
            (Misconception("writes_only", "counted only the intermediate writes, not reading them back",
                           "(kernels - 1)*n_elem*bytes_per_elem", "只算了中间结果的写入，漏了再读回来"),
             Misconception("all_passes", "counted all 2k passes as saved: the fused kernel still reads its input and "
                           "writes its output once", "2*kernels*n_elem*bytes_per_elem",
                           "把全部 2k 次读写都算成省下的：融合后的 kernel 仍要读一次输入、写一次输出")),
            "ΔBytes",
            decomposition=("unfused, each of the k kernels reads its input and writes its output: 2k passes over the "
                           "tensor; fused, one read of the input and one write of the result: 2 passes",
                           "saved: the k − 1 intermediate tensors, each written to HBM by one kernel and read back by "
                           "the next: 2(k − 1) passes of n × bytes"),
            decomposition_zh=("未融合时 k 个 kernel 各读一次输入、写一次输出：整个张量过 2k 遍；融合后只读一次输入、"
                              "写一次结果：2 遍",
                              "省下的是 k − 1 个中间结果：每个都被前一个 kernel 写回显存、再被后一个读出来："
                              "2(k − 1) 遍，每遍 n × bytes"),
            parts=(Part("tensor", "Bytes_pass", "n_elem*bytes_per_elem", "bytes", "one pass over the tensor",
                        "张量过一遍"),
                   Part("unfused", "Bytes_unfused", "2*kernels*tensor", "bytes", "k kernels, a read and a write each",
                        "k 个 kernel，各读一次、写一次"),
                   Part("fused", "Bytes_fused", "2*tensor", "bytes", "one read, one write", "读一次、写一次")),
            via="unfused - fused",
            simplification=("the fused kernel moves 2 / 2k = 1/k of the bytes ({fused} instead of {unfused}): "
                            "memory-bound, it runs about k = {kernels} times faster",),
            simplification_zh=("融合后的 kernel 只搬 2 / 2k = 1/k 的字节（{fused}，原来是 {unfused}）：访存受限时速度约为原来的 "
                               "k = {kernels} 倍",),
            takeaway="fusion saves exactly the intermediate tensors' round trips to HBM, 2(k − 1) of the 2k passes: for "
                     "memory-bound element-wise kernels that is (k − 1)/k of their time.",
            takeaway_zh="融合省下的正是中间结果进出显存的往返，2k 遍里的 2(k − 1) 遍：对访存受限的逐元素 kernel，"
                        "省下的就是 (k − 1)/k 的耗时。",
            example={"n_elem": 8192 * 4096, "kernels": 3, "bytes_per_elem": 2},
            meaning_zh="把 k 个单输入逐元素 kernel 融合成一个省下的显存访存量：未融合时每个 kernel 读输入、写输出"
                       "（张量过 2k 遍）；融合后读一次输入、写一次结果（2 遍）"),
    Formula("hbm_time", (Input("bytes", "bytes", "bytes moved to/from memory", "Bytes"), BW),
            "bytes/bandwidth", "time", "time a memory-bound kernel spends moving its bytes at the memory bandwidth",
            "R§3.1",
            (Misconception("bits", "mixed up bits and bytes (off by 8)", "8*bytes/bandwidth", "把比特和字节搞混了（差 8 倍）"),),
            "T_mem",
            decomposition=("a memory-bound kernel sits on the slanted roof: its time is the bytes it moves over the "
                           "memory bandwidth, whatever its FLOPs",),
            decomposition_zh=("访存受限的算子落在斜线上：耗时就是搬运的字节数除以显存带宽，与 FLOPs 无关",),
            takeaway="for a memory-bound kernel every byte not moved is time saved: T = bytes ÷ bandwidth, the FLOPs "
                     "do not enter.",
            takeaway_zh="对访存受限的算子，少搬一个字节就省一份时间：T = 字节数 ÷ 带宽，FLOPs 不起作用。",
            example={"bytes": 1e9, "bandwidth": 2e12},
            meaning_zh="访存受限的算子按显存带宽搬完这些字节所需的时间"),
    Formula("max_batch_tpot", (Input("tpot_target", "time", "largest acceptable time per output token", "TPOT_max",
                                     "可接受的最大每 token 时间（TPOT 目标）"),
                               BW, Input("weight_bytes", "bytes", "bytes of the weights", "W"),
                               Input("kv_bytes_per_seq", "bytes", "KV cache bytes of one sequence", "KV_seq")),
            "floor((tpot_target*bandwidth - weight_bytes)/kv_bytes_per_seq)", "count",
            "largest decode batch whose memory-bound step (W + B·KV_seq) / BW meets a TPOT target",
            "C§4.2, R§5.4",
            (Misconception("no_weights_read", "forgot that every step reads the weights too",
                           "floor(tpot_target*bandwidth/kv_bytes_per_seq)", "忘了每一步也要把权重读一遍"),
             Misconception("rounded_up", "rounded up: that batch misses the target",
                           "ceil((tpot_target*bandwidth - weight_bytes)/kv_bytes_per_seq)", "向上取整了：那个 batch 达不到目标")),
            "B_max",
            refs="kipply2022, pope2022",
            decomposition=("a decode step reads W + B × KV_seq bytes, so TPOT = (W + B × KV_seq) / BW ≤ TPOT_max; "
                           "solve for B: within the target the memory reads TPOT_max × BW bytes, the weights take W of "
                           "them, every sequence KV_seq of the rest; round down",),
            decomposition_zh=("一个 decode 步读 W + B × KV_seq 字节，所以 TPOT = (W + B × KV_seq) / BW ≤ TPOT_max；"
                              "对 B 求解：目标时间内显存能读 TPOT_max × BW 字节，权重先占 W，剩下的每条序列占 KV_seq；"
                              "向下取整",),
            parts=(Part("budget", "TPOT_max × BW", "tpot_target*bandwidth", "bytes",
                        "bytes the memory reads within the target", "目标时间内显存能读的字节数"),
                   Part("room", "TPOT_max × BW − W", "budget - weight_bytes", "bytes",
                        "left for KV reads after the weights", "扣掉权重后留给 KV 读取的字节数")),
            via="floor(room/kv_bytes_per_seq)",
            simplification=("B_max = (BW × TPOT_max − W) / KV_seq: the target must first pay for the weight read "
                            "W / BW; a target below it allows no batch at all, and a longer context (larger KV_seq) "
                            "shrinks B_max as 1 / KV_seq",),
            simplification_zh=("B_max = (BW × TPOT_max − W) / KV_seq：目标时间先要付掉读权重的 W / BW；目标比它还短就一条"
                               "序列也跑不了，上下文越长（KV_seq 越大），B_max 与 KV_seq 成反比地变小",),
            takeaway="the TPOT target fixes the bytes a step may read: the weights take their share first and each "
                     "sequence's KV cache the rest, so a longer context or a tighter SLO cuts the batch, and the "
                     "throughput with it.",
            takeaway_zh="TPOT 目标决定了每步能读多少字节：先扣掉权重，剩下的按每条序列的 KV Cache 分，所以上下文越长或 "
                        "SLO 越紧，batch 越小，吞吐也跟着降。",
            example={"tpot_target": 0.05, "bandwidth": 3e12, "weight_bytes": 70e9, "kv_bytes_per_seq": 1e9},
            meaning_zh="访存受限的 decode 步 (W + B·KV_seq) / BW 满足 TPOT 目标时的最大 batch"),
    # bits per weight are plain numbers here (÷ 8 makes bytes): as a "bits" quantity a unit expression would already
    # read 4.125 bit as 0.516 B, and the ÷ 8 would count twice
    Formula("quant_weights_bytes", (PHI, Input("bits_per_weight", "count", "stored bits per weight, group "
                                               "scales and zero points included (a number of bits)", "bits",
                                               "每个权重实际存储的位数，含分组的缩放因子与零点（一个位数）")),
            "phi*bits_per_weight/8", "bytes",
            "memory of quantised weights: Φ × bits per weight / 8 (bits per weight include the group overhead)",
            "frantar2022, lin2023",
            (Misconception("no_group_overhead", GROUP_SCALE[0], "phi*bits/8", GROUP_SCALE[1]),
             Misconception("bits_as_bytes", "used bits as bytes (forgot ÷ 8)", "phi*bits_per_weight",
                           "把比特当成了字节（漏了 ÷ 8）")),
            "M_q",
            decomposition=("each of the Φ weights is stored in `bits` bits, its own bits plus its share of the "
                           "group's scale and zero point; 8 bits make a byte",),
            decomposition_zh=("Φ 个权重每个占 bits 位（自身的位数加上分摊到它身上的分组缩放因子与零点）；8 位为 1 字节",),
            parts=(Part("bytes_weight", "bytes/weight", "bits_per_weight/8", "bytes", "one weight, scales included",
                        "一个权重，含缩放因子"),),
            via="phi*bytes_weight",
            simplification=("in round numbers each billion parameters takes bits ÷ 8 GB: 2 GB in bf16, 1 GB in "
                            "int8, 0.5 GB at 4 bits, a little more once the group scales are counted",),
            simplification_zh=("粗算：每十亿个参数占（位数 ÷ 8）GB：bf16 为 2 GB，int8 为 1 GB，4 位为 0.5 GB，"
                               "算上分组缩放因子还要再多一点",),
            takeaway="Φ × effective bits ÷ 8 = {result}: count the group scales (4-bit weights with an fp16 scale "
                     "per 128 take 4.125 bits, about 3.9× smaller than bf16, not 4×).",
            takeaway_zh="Φ × 有效位数 ÷ 8 = {result}：分组缩放因子要算进去（4 位权重、每 128 个一个 fp16 缩放因子就是 "
                        "4.125 位，只有 bf16 的约 1/3.9，而不是 1/4）。",
            example={"phi": 7e10, "bits_per_weight": 4.125},
            meaning_zh="量化后权重的显存：Φ × 每权重位数 ÷ 8（每权重位数已含分组开销）"),
    Formula("quant_decode_speedup", (Input("bits_before", "count", "bits per weight before quantisation (a number)", "b_0",
                                           "量化前每个权重的位数（一个数）"),
                                     Input("bits_after", "count", "bits per weight after, group overhead included (a number)",
                                           "b_q", "量化后每个权重的位数，含分组开销（一个数）"),
                                     Input("weight_bytes", "bytes", "bytes of the weights before quantisation", "W",
                                           "量化前权重的字节数"),
                                     Input("kv_bytes", "bytes", "KV cache bytes read per decode step", "KV",
                                           "每个 decode 步读取的 KV Cache 字节数")),
            "(weight_bytes + kv_bytes)/(weight_bytes*bits_after/bits_before + kv_bytes)", "ratio",
            "memory-bound decode speed-up from quantising the weights only: the step reads W + KV, and only W shrinks "
            "(by b_q / b_0)",
            "pope2022, lin2023",
            (Misconception("no_kv", "ignored the KV cache reads", "bits_before/bits_after", "忽略了 KV Cache 的读取"),
             # next to a large KV read the scales are negligible: within tolerance it is an approximation
             Misconception("no_group_overhead_decode", GROUP_SCALE[0],
                           "(weight_bytes + kv_bytes)/(weight_bytes*bits/bits_before + kv_bytes)", GROUP_SCALE[1])),
            "speed-up",
            decomposition=("a memory-bound decode step takes bytes read ÷ bandwidth: it reads the weights W and the "
                           "KV cache KV; quantising shrinks only W, by b_q / b_0, so the speed-up is bytes before ÷ "
                           "bytes after (the bandwidth cancels)",),
            decomposition_zh=("访存受限的 decode 步耗时 = 读取的字节 ÷ 带宽：每步读权重 W 和 KV Cache；量化只让 W 缩小为 "
                              "b_q / b_0，所以加速比 = 量化前读取的字节 ÷ 量化后读取的字节（带宽约掉）",),
            parts=(Part("read_0", "read_0", "weight_bytes + kv_bytes", "bytes", "bytes read per step before",
                        "量化前每步读取的字节"),
                   Part("w_q", "W_q", "weight_bytes*bits_after/bits_before", "bytes", "the quantised weights",
                        "量化后的权重"),
                   Part("read_q", "read_q", "w_q + kv_bytes", "bytes", "bytes read per step after",
                        "量化后每步读取的字节"),
                   Part("ceiling", "b_0 / b_q", "bits_before/bits_after", "count",
                        "the speed-up with no KV reads", "没有 KV 读取时的加速比")),
            via="read_0/read_q",
            simplification=("limits: with no KV reads (batch 1, short context) the speed-up is the bit ratio b_0 / b_q "
                            "= {ceiling}; as batch × context grows the bf16 KV reads dominate and it falls toward 1",),
            simplification_zh=("极限：没有 KV 读取时（batch 1、短上下文）加速比就是位数之比 b_0 / b_q = {ceiling}；batch × "
                                "上下文越大，bf16 的 KV 读取占比越高，加速比越接近 1",),
            takeaway="weight-only quantisation speeds decode up by the bytes it saves ({read_0} → {read_q} per step), "
                     "not by the bit ratio: the scales cost a little and the KV cache is still read in full.",
            takeaway_zh="仅量化权重时，decode 的加速来自省下的字节（每步 {read_0} → {read_q}），而不是位数之比：缩放因子要占一点，"
                        "KV Cache 仍然整份读取。",
            example={"bits_before": 16, "bits_after": 4.125, "weight_bytes": 1.4e11, "kv_bytes": 1e10},
            meaning_zh="仅量化权重带来的访存受限 decode 加速比：每步读 W + KV，只有 W 缩小（按 b_q / b_0）"),
    Formula("paged_kv_waste_tokens", (Input("seq", "count", "tokens in the sequence", "S", "序列的 token 数"),
                                      Input("block_size", "count", "tokens per KV block", "b", "每个 KV 块的 token 数")),
            "ceil(seq/block_size)*block_size - seq", "count",
            "KV slots reserved but unused by one sequence under PagedAttention: only its last block is partly empty",
            "kwon2023",
            (Misconception("filled_part", "gave the filled part of the last block (S mod b), not its empty slots",
                           "seq - floor(seq/block_size)*block_size", "给出的是最后一块已填满的部分（S mod b），不是空着的槽位"),),
            "waste",
            decomposition=("a sequence holds whole blocks of b tokens, ceil(S / b) of them; the slots it reserves but "
                           "leaves empty are blocks × b − S, all in its last block",),
            decomposition_zh=("一条序列占用整块，每块 b 个 token，共 ceil(S / b) 块；预留了但空着的槽位 = 块数 × b − S，"
                              "全在最后一块里",),
            parts=(Part("blocks", "blocks", "ceil(seq/block_size)", "count", "whole blocks the sequence holds",
                        "这条序列占用的整块数"),
                   Part("slots", "blocks × b", "blocks*block_size", "count", "token slots reserved",
                        "预留的 token 槽位数")),
            via="slots - seq",
            simplification=("whatever S is, the waste is less than one block (< b slots), about b / 2 on average",),
            simplification_zh=("不管 S 多大，浪费都不到一块（< b 个槽位），平均约 b / 2",),
            takeaway="paging bounds the waste of a sequence by one block, against the whole unused tail of a "
                     "max-length reservation without it: that is why vLLM fits far more requests in the same memory.",
            takeaway_zh="分页把一条序列的浪费限制在一块以内，而不分页时按最大长度预留，没用到的整段尾巴都浪费了："
                        "这就是 vLLM 在同样的显存里能放下多得多的请求的原因。",
            example={"seq": 1000, "block_size": 16},
            meaning_zh="PagedAttention 下一条序列预留了但没用上的 KV 槽位：只有最后一块可能没填满"),
    Formula("paged_max_seqs", (Input("kv_budget", "bytes", "memory left for the KV cache", "M_KV", "留给 KV Cache 的显存"),
                               Input("kv_bytes_per_token", "bytes", "KV cache bytes per token (all layers)", "KV/token",
                                     "每个 token 的 KV Cache 字节数（所有层）"),
                               Input("seq", "count", "tokens per sequence", "S", "每条序列的 token 数"),
                               Input("block_size", "count", "tokens per KV block", "b", "每个 KV 块的 token 数")),
            "floor(kv_budget/(ceil(seq/block_size)*block_size*kv_bytes_per_token))", "count",
            "sequences of S tokens a KV budget holds under PagedAttention: each holds ceil(S/b) whole blocks",
            "kwon2023",
            (Misconception("no_block_rounding", "ignored that each sequence holds whole blocks",
                           "floor(kv_budget/(seq*kv_bytes_per_token))", "忽略了每条序列占用的是整块"),
             Misconception("rounded_up", "rounded up: the last sequence would not fit",
                           "ceil(kv_budget/(ceil(seq/block_size)*block_size*kv_bytes_per_token))",
                           "向上取整了：最后一条序列放不下")),
            "N_seq",
            refs="pope2022",
            decomposition=("a sequence of S tokens holds ceil(S / b) whole blocks of b tokens, each token KV/token "
                           "bytes; the KV budget ÷ the bytes of one sequence, rounded down (a partial sequence does "
                           "not fit)",),
            decomposition_zh=("一条 S 个 token 的序列占 ceil(S / b) 个整块，每块 b 个 token，每个 token KV/token 字节；"
                              "KV 预算 ÷ 一条序列的字节数，向下取整（放不下一整条就不算）",),
            parts=(Part("blocks", "blocks/seq", "ceil(seq/block_size)", "count", "whole blocks one sequence holds",
                        "一条序列占用的整块数"),
                   Part("per_seq", "bytes/seq", "blocks*block_size*kv_bytes_per_token", "bytes",
                        "KV memory one sequence holds, in whole blocks", "一条序列按整块占用的 KV 显存")),
            via="floor(kv_budget/per_seq)",
            simplification=("the blocks add less than b tokens per sequence: N_seq ≈ M_KV / (S × KV/token); without "
                            "paging a server that reserves the full context divides by the context length instead",),
            simplification_zh=("按块取整每条序列多占不到 b 个 token：N_seq ≈ M_KV / (S × KV/token)；不分页、按完整上下文"
                               "预留的服务则要除以上下文长度",),
            takeaway="with paging a sequence costs its actual length rounded up to whole blocks, not the model's maximum "
                     "context: the batch is set by the tokens in flight, and the waste stays under one block per "
                     "sequence.",
            takeaway_zh="分页后一条序列只占它的实际长度（向上取整到整块），而不是模型的最大上下文：batch 由实际在跑的 token "
                        "数决定，每条序列的浪费不到一块。",
            example={"kv_budget": 40e9, "kv_bytes_per_token": 320e3, "seq": 1000, "block_size": 16},
            meaning_zh="PagedAttention 下一份 KV 预算能放下多少条 S 个 token 的序列：每条占 ceil(S/b) 个整块"),
    Formula("moe_expert_capacity", (Input("tokens", "count", "tokens in the batch", "T", "batch 中的 token 数"),
                                    Input("top_k", "count", "experts each token is routed to", "k",
                                          "每个 token 路由到的专家数"),
                                    Input("n_experts", "count", "experts in the layer", "E", "该层的专家数"),
                                    Input("capacity_factor", "ratio", "capacity factor", "CF", "容量因子")),
            "ceil(capacity_factor*tokens*top_k/n_experts)", "count",
            "expert capacity: the most token slots one expert processes per batch (tokens beyond it are dropped or "
            "overflow)",
            "fedus2021, lepikhin2020",  # Switch §2.2: tokens / experts × capacity factor; × k for top-k as in GShard
            (Misconception("no_top_k", "forgot that every token goes to top_k experts",
                           "ceil(capacity_factor*tokens/n_experts)", "忘了每个 token 会发往 top_k 个专家"),
             Misconception("no_capacity_factor", "left out the capacity factor (the perfectly balanced load)",
                           "ceil(tokens*top_k/n_experts)", "漏了容量因子（那是完全均衡时的负载）")),
            "C_expert",
            decomposition=("each of the T tokens picks k experts: T·k token slots are asked for; spread evenly over "
                           "the E experts that is T·k/E per expert; the capacity factor CF adds headroom for uneven "
                           "routing, and a slot is whole: round up",),
            decomposition_zh=("T 个 token 各选 k 个专家：一共要 T·k 个 token 槽位；均匀分给 E 个专家，每个专家 T·k/E 个；"
                              "容量因子 CF 为路由不均留出余量；槽位是整数：向上取整",),
            parts=(Part("even", "T·k/E", "tokens*top_k/n_experts", "count", "slots per expert if routing were "
                        "perfectly even", "路由完全均衡时每个专家的槽位"),),
            via="ceil(capacity_factor*even)",
            simplification=("with CF = 1 each expert gets exactly the balanced load, {even} slots: any expert the "
                            "router favours beyond that drops tokens; CF > 1 is the headroom",),
            simplification_zh=("CF = 1 时每个专家正好是均衡负载 {even} 个槽位：路由器偏爱的专家超出这个数就要丢 token；"
                               "CF > 1 就是留出的余量",),
            takeaway="capacity trades dropped tokens for wasted work: too small a CF drops the tokens routed to a busy "
                     "expert, too large a CF pads every expert with empty slots it still computes and stores.",
            takeaway_zh="专家容量是在丢 token 和白算之间取舍：CF 太小，发往热门专家的 token 被丢弃；CF 太大，每个专家都"
                        "填满空槽位，照样要算、要存。",
            example={"tokens": 4096, "top_k": 2, "n_experts": 8, "capacity_factor": 1.25},
            meaning_zh="专家容量：每个专家每个 batch 最多处理的 token 槽位数（超出的 token 被丢弃或溢出）"),
)

# ------------------------------------------------------------------------------ #
# Catalogue, part 2 (shared/spec/formulas.md "beyond the seeds"): the standard
# interview formulas the two articles do not cover.  Sources are named in full.

TP = Input("tp", "count", "tensor-parallel degree (GPUs one layer is split over)", "TP",
           "张量并行度（一层切分到的 GPU 数）")
PP = Input("pp", "count", "pipeline-parallel degree (stages)", "PP", "流水线并行度（阶段数）")
PHI_DENSE = Input("phi_dense", "count", "parameters outside the experts (attention, embeddings, router, norms)",
                  "Φ_dense", "专家以外的参数（注意力、embedding、路由器、归一化层）")
PHI_EXPERT = Input("phi_expert", "count", "parameters of one expert summed over all MoE layers", "Φ_expert",
                   "单个专家在所有 MoE 层上的参数之和")
TOP_K = Input("top_k", "count", "experts each token is routed to", "k", "每个 token 路由到的专家数")
T_TP = Input("t", "count", "tensor-parallel degree", "t")
ACCEPT = Input("acceptance", "ratio", "probability the target model accepts a draft token (i.i.d.)", "α",
               "目标模型接受一个草稿 token 的概率（独立同分布）")
DRAFT_K = Input("draft_tokens", "count", "tokens the draft model proposes per step", "γ", "草稿模型每步提出的 token 数")
WEIGHT_BYTES = Input("weight_bytes", "bytes", "bytes of weights read per step", "W")
KV_SEQ = Input("kv_bytes_per_seq", "bytes", "KV cache bytes of one sequence", "KV_seq")
BATCH = Input("batch", "count", "sequences decoded together", "B")

NOT_SPLIT_TP_PP = ("did not divide by TP × PP (each GPU holds only its 1/(TP·PP) slice of the model)",
                   "没有除以 TP × PP（每张卡只放模型的 1/(TP·PP)）")
NO_MFU = ("assumed 100% utilisation (left out MFU)", "假设了 100% 利用率（漏了 MFU）")
NO_KV = ("ignored the KV cache reads", "忽略了 KV Cache 的读取")
LINEAR_SPEC = ("assumed each draft token is accepted independently (γ·α + 1); a rejection ends the run",
               "把每个草稿 token 当成独立接受（γ·α + 1）；一旦被拒绝，后面的草稿全部作废")


ZERO_EXPR = {1: "4*phi + 12*phi/n_dp", 2: "2*phi + 14*phi/n_dp", 3: "16*phi/n_dp"}
ZERO_SHOWN = {1: "(4Φ + 12Φ/N_dp)", 2: "(2Φ + 14Φ/N_dp)", 3: "16Φ/N_dp"}


def _zero_parallel(stage: int) -> Formula:
    """ZeRO-``stage`` static bytes per GPU when the model is also split TP × PP ways."""
    what = {1: "optimizer states", 2: "optimizer states and gradients", 3: "optimizer states, gradients and weights"}
    miscon = [Misconception("no_model_split", NOT_SPLIT_TP_PP[0], ZERO_EXPR[stage], NOT_SPLIT_TP_PP[1])]
    miscon += [Misconception(f"zero{k}", f"used the ZeRO-{k} formula {ZERO_SHOWN[k]} / (TP·PP)",
                             f"({ZERO_EXPR[k]})/(tp*pp)", f"用成了 ZeRO-{k} 的公式 {ZERO_SHOWN[k]} / (TP·PP)")
               for k in (1, 2, 3) if k != stage]
    miscon.append(Misconception("unsharded_parallel", "sharded nothing over data parallel (16Φ / (TP·PP))",
                                "16*phi/(tp*pp)", "没有在数据并行组里切分任何状态（16Φ / (TP·PP)）"))
    what_zh = {1: "优化器状态", 2: "优化器状态和梯度", 3: "优化器状态、梯度和权重"}
    shown = {1: "(4Φ + 12Φ/N_dp) / (TP·PP)", 2: "(2Φ + 14Φ/N_dp) / (TP·PP)", 3: "16Φ / (TP·PP·N_dp)"}
    slice_part = Part("slice", "Φ_slice", "phi/(tp*pp)", "count", "parameters of this GPU's slice of the model",
                      "本卡分到的那一份模型参数")
    # what stays whole on every data-parallel replica (bytes per parameter), what is split N_dp ways
    kept, split = {1: (4, 12), 2: (2, 14), 3: (0, 16)}[stage]
    kept_en = {1: "bf16 weights and gradients, 2 B + 2 B", 2: "bf16 weights, 2 B"}
    kept_zh = {1: "bf16 权重和梯度，每个参数 2 B + 2 B", 2: "bf16 权重，每个参数 2 B"}
    split_en = {1: "fp32 AdamW states, 12 B", 2: "bf16 gradients and fp32 AdamW states, 2 B + 12 B"}
    split_zh = {1: "fp32 AdamW 状态，每个参数 12 B", 2: "bf16 梯度和 fp32 AdamW 状态，每个参数 2 B + 12 B"}
    if stage == 3:
        parts = (slice_part,
                 Part("state", "16Φ_slice", "16*slice", "bytes", "the slice's whole training state, 16 B per parameter",
                      "这一份的全部训练状态，每个参数 16 B"))
        via = "state/n_dp"
    else:
        parts = (slice_part,
                 Part("kept", f"{kept}Φ_slice", f"{kept}*slice", "bytes",
                      f"{kept_en[stage]} per parameter, whole on every replica",
                      f"{kept_zh[stage]}，每个副本都存完整的一份"),
                 Part("shard", f"{split}Φ_slice/N_dp", f"{split}*slice/n_dp", "bytes",
                      f"this GPU's share of the {split_en[stage]} per parameter",
                      f"本卡分到的 {split_zh[stage]}"))
        via = "kept + shard"
    decomposition = (f"tensor and pipeline parallelism split the model first: each GPU holds Φ/(TP·PP) of the "
                     f"parameters; then ZeRO-{stage} shards the {what[stage]} of that slice over the N_dp "
                     f"data-parallel replicas: {shown[stage]}",)
    decomposition_zh = (f"先由张量并行和流水线并行切分模型：每张卡持有 Φ/(TP·PP) 的参数；再由 ZeRO-{stage} 把这一份的"
                        f"{what_zh[stage]}在 N_dp 个数据并行副本间切分：{shown[stage]}",)
    if stage == 3:
        simplification = ("with everything sharded the layout drops out: 16Φ/(TP·PP·N_dp) = 16Φ / (number of GPUs); "
                          "any TP × PP × DP over the same GPUs gives {result}",)
        simplification_zh = ("全部切分后与布局无关：16Φ/(TP·PP·N_dp) = 16Φ / GPU 总数；同样多的卡，任何 TP × PP × DP "
                             "都得到 {result}",)
        takeaway = ("ZeRO-3 spreads all 16 bytes per parameter over every GPU: memory falls with the cluster size, "
                    "paid for by gathering the weights twice per step (1.5× the traffic of data parallelism).")
        takeaway_zh = "ZeRO-3 把每个参数的 16 字节摊到所有卡上：显存随集群规模下降，代价是每步 AllGather 两次权重（通信量是数据并行的 1.5 倍）。"
    else:
        simplification = (f"as N_dp grows the shard vanishes and the memory tends to {kept}Φ/(TP·PP) = {{kept}}: the "
                          f"replicated {'weights and gradients' if stage == 1 else 'weights'} are the floor, and only "
                          f"a larger TP·PP lowers it",)
        simplification_zh = (f"N_dp 增大时切片趋于 0，显存趋于 {kept}Φ/(TP·PP) = {{kept}}：复制的"
                             f"{'权重和梯度' if stage == 1 else '权重'}是下限，只有加大 TP·PP 才能再降",)
        takeaway = (f"TP·PP divides every byte, ZeRO-{stage} only the {split} B of "
                    f"{'AdamW state' if stage == 1 else 'gradients and AdamW state'}: choose TP·PP so that the "
                    f"replicated {kept}Φ/(TP·PP) fits, and more data parallelism then only shrinks the rest.")
        takeaway_zh = (f"TP·PP 切分所有字节，ZeRO-{stage} 只切分 {split} B 的{' AdamW 状态' if stage == 1 else '梯度和 AdamW 状态'}："
                       f"先选 TP·PP 让复制的 {kept}Φ/(TP·PP) 放得下，之后再加数据并行只会让剩下的部分变小。")
    return Formula(
        f"zero{stage}_parallel_bytes", (PHI, TP, PP, N_DP), f"({ZERO_EXPR[stage]})/(tp*pp)", "bytes",
        f"static training bytes per GPU under TP × PP × DP with ZeRO-{stage}: the model is split TP·PP ways and "
        f"the {what[stage]} of each slice are sharded over the N_dp data-parallel replicas (activations excluded)",
        "rajbhandari2020, shoeybi2019, narayanan2021",  # ZeRO §5 on top of Megatron-LM tensor and pipeline parallelism
        tuple(miscon), f"M_ZeRO-{stage}/GPU",
        decomposition=decomposition, decomposition_zh=decomposition_zh, parts=parts, via=via,
        simplification=simplification, simplification_zh=simplification_zh,
        takeaway=takeaway, takeaway_zh=takeaway_zh,
        example={"phi": 70e9, "tp": 8, "pp": 2, "n_dp": 4},
        meaning_zh=f"TP × PP × DP 加 ZeRO-{stage} 时每张 GPU 的静态训练显存：模型先切成 TP·PP 份，每份的{what_zh[stage]}"
                   "再在 N_dp 个数据并行副本间切分（不含激活值）")


PART2: tuple[Formula, ...] = (
    # ----------------------------------------------------------- mixture of experts
    Formula("moe_total_params", (PHI_DENSE, PHI_EXPERT, Input("n_experts", "count", "experts per MoE layer", "E",
                                                              "每个 MoE 层的专家数")),
            "phi_dense + n_experts*phi_expert", "count",
            "total parameters of a mixture-of-experts model: what memory must hold (every expert is stored)",
            "shazeer2017, jiang2024",
            (Misconception("name_times_experts", "multiplied the whole model by the expert count (8x7B ≠ 56B: "
                           "attention and embeddings are shared)", "n_experts*(phi_dense + phi_expert)",
                           "把整个模型乘以专家数（8x7B ≠ 56B：注意力和 embedding 是共享的）"),
             Misconception("experts_only", "counted only the experts (left out attention, embeddings and router)",
                           "n_experts*phi_expert", "只算了专家（漏了注意力、embedding 和路由器）")), "Φ_total",
            decomposition=("the shared part (attention, embeddings, router, norms) is stored once: Φ_dense; every one "
                           "of the E experts is its own MLP with its own weights: E × Φ_expert",),
            decomposition_zh=("共享部分（注意力、embedding、路由器、归一化层）只存一份：Φ_dense；E 个专家各是一个独立的 MLP，"
                              "各有各的权重：E × Φ_expert",),
            parts=(Part("experts", "E·Φ_expert", "n_experts*phi_expert", "count", "all the experts, each stored",
                        "全部专家，每个都要存"),),
            via="phi_dense + experts",
            simplification=("the experts are most of the model, but the shared part is counted once: multiplying the "
                            "whole model by E (\"8x7B = 56B\") counts attention and embeddings E times",),
            simplification_zh=("专家占了模型的大头，但共享部分只算一次：把整个模型乘以 E（“8x7B = 56B”）会把注意力和 "
                               "embedding 算 E 遍",),
            takeaway="an MoE costs memory for all experts but FLOPs only for the active ones: {result} parameters sit "
                     "in memory (Mixtral-8x7B stores 47B and computes like 13B).",
            takeaway_zh="MoE 的显存要装下全部专家，FLOPs 却只按激活的专家算：显存里放着 {result} 个参数"
                        "（Mixtral-8x7B 存 47B，算起来像 13B）。",
            example={"phi_dense": 1.6e9, "phi_expert": 5.6e9, "n_experts": 8},
            meaning_zh="混合专家模型的总参数量：显存必须装下的量（每个专家都要存）"),
    Formula("moe_active_params", (PHI_DENSE, PHI_EXPERT, TOP_K), "phi_dense + top_k*phi_expert", "count",
            "active parameters per token of a mixture-of-experts model: what FLOPs use (2·Φ_active per token "
            "forward); memory still holds the total",
            "jiang2024",  # Mixtral-8x7B: 12.9B active of 46.7B, top-2 of 8 experts
            (Misconception("one_expert", "routed each token to one expert instead of top-k",
                           "phi_dense + phi_expert", "让每个 token 只走一个专家，而不是 top-k 个"),
             Misconception("experts_only_active", "counted only the active experts (left out the shared attention and "
                           "embeddings)", "top_k*phi_expert", "只算了被激活的专家（漏了共享的注意力和 embedding）")),
            "Φ_active",
            decomposition=("every token runs through the shared part (attention, embeddings, router): Φ_dense; the "
                           "router sends it to k of the E experts, so it also multiplies through k × Φ_expert",),
            decomposition_zh=("每个 token 都要经过共享部分（注意力、embedding、路由器）：Φ_dense；路由器把它送到 E 个专家中的 "
                              "k 个，所以还要用到 k × Φ_expert",),
            parts=(Part("routed", "k·Φ_expert", "top_k*phi_expert", "count", "the k experts this token is routed to",
                        "这个 token 被路由到的 k 个专家"),),
            via="phi_dense + routed",
            simplification=("the other experts sit in memory but this token never touches them: a forward pass "
                            "costs about 2 FLOPs per active parameter, 2 × Φ_active per token",),
            simplification_zh=("其余专家虽然在显存里，这个 token 却用不到它们：前向每个 token 约 2 × Φ_active FLOPs"
                               "（每个激活参数 2 FLOPs）",),
            takeaway="per token an MoE computes like a dense model of {result} parameters: that is how it grows its "
                     "parameters without growing its FLOPs, as long as memory and the All-to-All keep up.",
            takeaway_zh="每个 token 的计算量相当于 {result} 参数的稠密模型：MoE 就是这样扩大参数量而不扩大 FLOPs 的，"
                        "前提是显存和 All-to-All 跟得上。",
            example={"phi_dense": 1.6e9, "phi_expert": 5.6e9, "top_k": 2},
            meaning_zh="混合专家模型每个 token 的激活参数量：FLOPs 按它算（前向每个 token 2·Φ_active）；显存仍要装下全部参数"),
    Formula("moe_alltoall_bytes", (Input("tokens", "count", "tokens on this GPU in the step (batch × sequence)", "T",
                                         "本卡这一步的 token 数（batch × 序列长度）"),
                                   TOP_K, Input("d_model", "count", "hidden size", "d"), BPE, N_RANKS),
            "2*tokens*top_k*d_model*bytes_per_elem*(n-1)/n", "bytes",
            "bytes each GPU sends per MoE layer in the forward pass with expert parallelism over N GPUs: one "
            "All-to-All dispatches every token's k copies of its hidden vector, a second combines the results; "
            "uniform routing, so (N−1)/N of them leave the GPU",
            "lepikhin2020, rajbhandari2022",
            (Misconception("dispatch_only", "counted only the dispatch All-to-All; the combine sends the results back",
                           "tokens*top_k*d_model*bytes_per_elem*(n-1)/n", "只算了分发（dispatch）的 All-to-All；"
                           "合并（combine）还要把结果发回来"),
             Misconception("no_top_k", "sent each token once instead of once per chosen expert (× k)",
                           "2*tokens*d_model*bytes_per_elem*(n-1)/n", "每个 token 只发了一次，而不是每个被选中的专家各一次（× k）"),
             Misconception("no_ring_factor", "forgot that 1/N of the tokens stay on their own GPU ((N−1)/N)",
                           "2*tokens*top_k*d_model*bytes_per_elem", "忘了有 1/N 的 token 留在本卡（(N−1)/N）")),
            "V_A2A/layer",
            refs="deepseek_v3",
            decomposition=("dispatch: each of the T tokens sends its hidden vector (d values × bytes) to each of its k "
                           "experts; combine: the k expert outputs come back the same size: 2 × T × k × d × bytes",
                           "the experts are spread evenly over the N GPUs, so with uniform routing 1/N of the copies "
                           "stay on this GPU: × (N−1)/N"),
            decomposition_zh=("分发（dispatch）：T 个 token 各把自己的隐藏向量（d 个值 × 字节数）发给它的 k 个专家；合并"
                              "（combine）：k 个专家的输出以同样大小发回来：2 × T × k × d × 字节数",
                              "专家均匀分布在 N 张 GPU 上，路由均匀时有 1/N 的副本留在本卡：× (N−1)/N"),
            parts=(Part("vec", "d·bytes", "d_model*bytes_per_elem", "bytes", "one token's hidden vector",
                        "一个 token 的隐藏向量"),
                   Part("copies", "T·k·d·bytes", "tokens*top_k*vec", "bytes", "k copies of every token, one per chosen "
                        "expert", "每个 token 的 k 个副本，每个被选中的专家一个"),
                   Part("dispatch", "V_dispatch", "copies*(n-1)/n", "bytes", "the share that leaves this GPU: one "
                        "All-to-All", "离开本卡的部分：一次 All-to-All")),
            via="2*dispatch",
            simplification=("(N−1)/N → 1 as N grows: about 2 × T·k·d·bytes = 2 × {copies} per layer, each copy "
                            "going out and coming back, and the backward pass does it again",),
            simplification_zh=("N 增大时 (N−1)/N → 1：每层约 2 × T·k·d·bytes = 2 × {copies}，每个副本都要在网络上走一个"
                               "来回，反向传播还要再走一遍",),
            takeaway="MoE trades FLOPs for communication: every MoE layer moves k copies of each token out and back, "
                     "which is why expert parallelism wants NVLink-class links and DeepSeek-V3 caps each token at 4 "
                     "nodes.",
            takeaway_zh="MoE 用通信换 FLOPs：每个 MoE 层都要把每个 token 的 k 个副本发出去再收回来，所以专家并行需要 "
                        "NVLink 级的互联，DeepSeek-V3 也限制每个 token 最多发往 4 个节点。",
            example={"tokens": 4096, "top_k": 2, "d_model": 4096, "bytes_per_elem": 2, "n": 8},
            meaning_zh="专家并行（N 张 GPU）下每张 GPU 每个 MoE 层前向发送的字节数：一次 All-to-All 把每个 token 隐藏向量的 "
                       "k 个副本分发出去，第二次把结果合并回来；路由均匀，所以其中 (N−1)/N 离开本卡"),
    # ------------------------------------------------ activation memory with TP and SP
    # Korthikanti et al. §4.2.1-4.2.2: of the GPT layer's 34sbh, Megatron TP splits 24sbh (Q, K, V and the
    # output-projection input 8sbh; the GELU input and the second MLP GEMM's input 16sbh) and the 5as²b scores;
    # 10sbh stays whole on every GPU: the two LayerNorm inputs 4sbh, the LayerNorm outputs the column-parallel
    # QKV and first MLP GEMMs read 4sbh, the two dropout masks after attention and the MLP 2sbh.  Sequence
    # parallelism splits that region along the sequence (AllGather in, ReduceScatter out): all of it over t.
    Formula("activation_bytes_layer_tp", (S, B, H, A, T_TP), "s*b*h*(10 + 24/t + 5*a*s/(h*t))", "bytes",
            "activation memory of one transformer layer per GPU with tensor parallelism t and no sequence "
            "parallelism (fp16): attention and MLP internals are split t ways, the 10sbh of the LayerNorm and dropout "
            "region (LayerNorm inputs and outputs, dropout masks) is replicated",
            "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large Transformer Models', Table 2",
            (Misconception("all_split", "divided everything by t; the LayerNorm and dropout activations (10sbh) are "
                           "only split with sequence parallelism", "s*b*h*(34 + 5*a*s/h)/t",
                           "把所有项都除以了 t；LayerNorm 和 dropout 的激活（10sbh）只有开了序列并行才会被切分"),
             Misconception("no_tp", "did not divide by t at all (one GPU's figure without TP)",
                           "s*b*h*(34 + 5*a*s/h)", "完全没有除以 t（当成了不切分的单卡值）"),
             Misconception("no_scores", "left out the attention scores (the 5as²b/t term)", "s*b*h*(10 + 24/t)",
                           "漏了注意力分数项（5as²b/t）"),
             Misconception("fp32_activations", "counted 4-byte fp32 activations; mixed-precision training keeps them "
                           "in 2-byte fp16/bf16", "2*s*b*h*(10 + 24/t + 5*a*s/(h*t))",
                           "按 4 字节的 fp32 算了激活值；混合精度训练里它们是 2 字节的 fp16/bf16")), "M_act/GPU",
            refs="korthikanti2022",
            decomposition=("the GPT layer keeps 34sbh + 5as²b (2 B per value, 1-B dropout masks); Megatron TP splits "
                           "the heads and the MLP's 4h columns over t GPUs: Q, K, V and the output-projection input "
                           "(8sbh), the GELU input and the second MLP GEMM's input (16sbh): 24sbh/t, and the scores "
                           "5as²b/t",
                           "10sbh stays whole on every GPU: the two LayerNorm inputs (4sbh), their outputs that the QKV "
                           "and first MLP GEMMs read (4sbh), the two dropout masks after attention and the MLP (2sbh)"),
            decomposition_zh=("GPT 层保存 34sbh + 5as²b（每个值 2 B，dropout 掩码 1 B）；Megatron 张量并行把注意力头和 "
                              "MLP 的 4h 列切到 t 张卡上：Q、K、V 与输出投影的输入（8sbh），GELU 的输入与 MLP 第二个 "
                              "GEMM 的输入（16sbh），共 24sbh/t，注意力分数也切成 5as²b/t",
                              "10sbh 在每张卡上完整保存一份：两个 LayerNorm 的输入（4sbh）、QKV 与 MLP 第一个 GEMM "
                              "读入的 LayerNorm 输出（4sbh）、注意力和 MLP 之后的两个 dropout 掩码（2sbh）"),
            parts=(Part("sbh", "sbh", "s*b*h", "count", "values in one s × b × h activation",
                        "一个 s × b × h 激活张量的元素数"),
                   Part("kept", "10sbh", "10*sbh", "bytes", "LayerNorm and dropout region, whole on every GPU",
                        "LayerNorm 与 dropout 区域，每张卡完整一份"),
                   Part("split", "(24sbh + 5as²b)/t", "(24*sbh + 5*a*s*s*b)/t", "bytes",
                        "attention and MLP internals, split t ways", "注意力与 MLP 内部，切成 t 份")),
            via="kept + split",
            simplification=("as t grows only the split part shrinks: the figure per GPU tends to 10sbh = {kept}, the "
                            "LayerNorm and dropout activations tensor parallelism never splits",),
            simplification_zh=("t 增大时只有切分的部分在变小：每卡用量趋于 10sbh = {kept}，即张量并行切不开的 LayerNorm "
                               "与 dropout 激活",),
            takeaway="TP alone leaves 10sbh per layer replicated on every GPU; sequence parallelism splits those too, so "
                     "activations shrink by the full t.",
            takeaway_zh="只开张量并行时，每层 10sbh 的激活在每张卡上各存一份；序列并行把它们也切开，激活显存才整体缩小 t 倍。",
            example={"s": 2048, "b": 1, "h": 12288, "a": 96, "t": 8},
            meaning_zh="张量并行度为 t、不开序列并行时，每张 GPU 上一个 Transformer 层的激活值显存（fp16）：注意力和 MLP "
                       "内部切成 t 份，LayerNorm 与 dropout 区域（LayerNorm 的输入与输出、dropout 掩码）的 10sbh 每张卡完整一份"),
    Formula("activation_bytes_layer_tp_sp", (S, B, H, A, T_TP), "s*b*h*(34 + 5*a*s/h)/t", "bytes",
            "activation memory of one transformer layer per GPU with tensor and sequence parallelism t (fp16): "
            "sequence parallelism splits the LayerNorm and dropout activations along the sequence, so all of it "
            "is divided by t",
            "Korthikanti et al. 2022, 'Reducing Activation Recomputation in Large Transformer Models', Table 2",
            (Misconception("no_sp", "left the 10sbh of LayerNorm and dropout unsplit (that is TP without sequence "
                           "parallelism)", "s*b*h*(10 + 24/t + 5*a*s/(h*t))",
                           "没有切分 LayerNorm 和 dropout 的 10sbh（那是不开序列并行的 TP）"),
             Misconception("no_tp", "did not divide by t at all (one GPU's figure without TP)",
                           "s*b*h*(34 + 5*a*s/h)", "完全没有除以 t（当成了不切分的单卡值）"),
             Misconception("no_scores", "left out the attention scores (the 5as²b/t term)", "34*s*b*h/t",
                           "漏了注意力分数项（5as²b/t）"),
             Misconception("fp32_activations", "counted 4-byte fp32 activations; mixed-precision training keeps them "
                           "in 2-byte fp16/bf16", "2*s*b*h*(34 + 5*a*s/h)/t",
                           "按 4 字节的 fp32 算了激活值；混合精度训练里它们是 2 字节的 fp16/bf16")), "M_act/GPU",
            refs="korthikanti2022",
            decomposition=("sequence parallelism splits the LayerNorm and dropout region along the sequence: of the "
                           "10sbh that TP alone keeps whole on every GPU, each GPU now keeps its s/t tokens (an "
                           "AllGather before the QKV and first MLP GEMMs, a ReduceScatter after the attention and MLP "
                           "outputs)",
                           "attention and the MLP were already split t ways (24sbh + 5as²b), so every term of the "
                           "layer's 34sbh + 5as²b is divided by t"),
            decomposition_zh=("序列并行把 LayerNorm 与 dropout 区域沿序列维切开：只开张量并行时每张卡都完整保存的 10sbh，"
                              "现在每张卡只存自己那 s/t 个 token（QKV 与 MLP 第一个 GEMM 之前做 AllGather，注意力和 MLP "
                              "输出之后做 ReduceScatter）",
                              "注意力和 MLP 本来就切成了 t 份（24sbh + 5as²b），于是整层 34sbh + 5as²b 的每一项都除以 t"),
            parts=(Part("sbh", "sbh", "s*b*h", "count", "values in one s × b × h activation",
                        "一个 s × b × h 激活张量的元素数"),
                   Part("layer", "34sbh + 5as²b", "34*sbh + 5*a*s*s*b", "bytes",
                        "the whole layer on one GPU, without parallelism", "不切分时单卡上的整层")),
            via="layer/t",
            simplification=("with SP everything divides by t: (34 + 5as/h)·sbh/t, the one-GPU layer over t; against TP "
                            "alone that saves 10sbh·(1 − 1/t), the LayerNorm and dropout activations every GPU used to "
                            "keep whole",),
            simplification_zh=("开了序列并行，所有项都除以 t：(34 + 5as/h)·sbh/t，正是单卡整层的 1/t；比只开张量并行少了 "
                               "10sbh·(1 − 1/t)，也就是原来每张卡都完整保存的 LayerNorm 与 dropout 激活",),
            takeaway="TP alone leaves 10sbh per layer replicated; sequence parallelism splits those too, so activations "
                     "shrink by the full t, at the same communication volume (a ReduceScatter + AllGather in place of "
                     "each AllReduce).",
            takeaway_zh="只开张量并行时每层 10sbh 在每张卡上各存一份；序列并行把它们也切开，激活显存整体缩小 t 倍，而通信量"
                        "不变（每次 AllReduce 换成一次 ReduceScatter 加一次 AllGather）。",
            example={"s": 2048, "b": 1, "h": 12288, "a": 96, "t": 8},
            meaning_zh="张量并行加序列并行（并行度 t）时，每张 GPU 上一个 Transformer 层的激活值显存（fp16）：序列并行把 "
                       "LayerNorm 与 dropout 的激活沿序列维切开，整层都除以 t"),
    # ------------------------------------------------------- parallelism planning
    _zero_parallel(1),
    _zero_parallel(2),  # beyond the spec: the other two stages under TP × PP
    _zero_parallel(3),
    # --------------------------------------------------------------- nccl-tests
    Formula("allreduce_busbw", (Input("algbw", "bandwidth", "algorithm bandwidth: message size / time", "algbw",
                                      "算法带宽：消息大小 / 耗时"),
                                N_RANKS),
            "algbw*2*(n-1)/n", "bandwidth",
            "nccl-tests bus bandwidth of an AllReduce: algbw × 2(N−1)/N, the rate each link actually carries in a "
            "ring, comparable with the hardware's link bandwidth whatever N is",
            "nccl_tests",
            (Misconception("algbw_is_busbw", "reported the algorithm bandwidth as the bus bandwidth", "algbw",
                           "把算法带宽（algbw）当成了总线带宽（busbw）"),
             Misconception("no_ring_factor", "used the factor 2 without (N−1)/N", "2*algbw",
                           "只乘了 2，漏了 (N−1)/N"),
             Misconception("inverted_factor", "divided by 2(N−1)/N instead of multiplying", "algbw*n/(2*(n-1))",
                           "除以了 2(N−1)/N，应该乘")), "busbw",
            refs="patarasuk2009",
            decomposition=("algbw = S / t counts each byte of the message once, but a ring AllReduce (ReduceScatter + "
                           "AllGather) makes every GPU send and receive 2(N−1)/N × S in that time",
                           "so each link carries busbw = 2(N−1)/N × S / t = algbw × 2(N−1)/N"),
            decomposition_zh=("algbw = S / t 只把消息的每个字节算一次，而 Ring AllReduce（ReduceScatter + AllGather）"
                              "在这段时间里让每张 GPU 收发 2(N−1)/N × S",
                              "所以每条链路承载的速率 busbw = 2(N−1)/N × S / t = algbw × 2(N−1)/N"),
            parts=(Part("factor", "2(N−1)/N", "2*(n-1)/n", "count", "bytes each GPU moves per byte of the message",
                        "消息每个字节对应每张 GPU 实际传输的字节数"),),
            via="algbw*factor",
            simplification=("2(N−1)/N → 2 as N grows: busbw ≈ 2 × algbw; here the factor is {factor}",),
            simplification_zh=("N 增大时 2(N−1)/N → 2：busbw ≈ 2 × algbw；这里因子为 {factor}",),
            takeaway="compare busbw, not algbw, against the link speed: busbw is what the wire carries, independent "
                     "of N.",
            takeaway_zh="拿去和链路速率比较的是 busbw 而不是 algbw：busbw 是链路上实际跑的速率，与 N 无关。",
            example={"algbw": 100e9, "n": 8},
            meaning_zh="nccl-tests 中 AllReduce 的总线带宽：algbw × 2(N−1)/N，即环形中每条链路实际承载的速率，"
                       "无论 N 多大都可以直接和硬件链路带宽比较"),
    # ----------------------------------------------------------- serving latency
    Formula("decode_step_time", (BW, WEIGHT_BYTES, KV_SEQ, BATCH),
            "(weight_bytes + batch*kv_bytes_per_seq)/bandwidth", "time",
            "time of one memory-bound decode step (the TPOT lower bound): read the weights once and every "
            "sequence's KV cache",
            "C§4.2",
            (Misconception("no_kv_step", NO_KV[0], "weight_bytes/bandwidth", NO_KV[1]),
             Misconception("weights_per_seq_step", "read the weights once per sequence",
                           "batch*(weight_bytes + kv_bytes_per_seq)/bandwidth", "让每条序列各读了一遍权重"),
             Misconception("one_seq_kv", "read one sequence's KV cache instead of the whole batch's",
                           "(weight_bytes + kv_bytes_per_seq)/bandwidth", "只读了一条序列的 KV Cache，而不是整个 batch 的")),
            "TPOT",
            refs="kipply2022, pope2022",
            decomposition=("a decode step gives every sequence of the batch one token; it is memory-bound, so its time "
                           "is the bytes it reads ÷ the bandwidth: the weights W once (shared by the whole batch) plus "
                           "each sequence's KV cache, B × KV_seq",),
            decomposition_zh=("一个 decode 步给 batch 里每条序列各生成一个 token；它是访存受限的，耗时 = 读取的字节数 ÷ 带宽："
                              "权重 W 读一遍（整个 batch 共享），再加每条序列各自的 KV Cache，共 B × KV_seq",),
            parts=(Part("kv_batch", "B × KV_seq", "batch*kv_bytes_per_seq", "bytes",
                        "KV cache of the whole batch, read every step", "整个 batch 的 KV Cache，每步都要读一遍"),
                   Part("step", "bytes/step", "weight_bytes + kv_batch", "bytes", "bytes read per decode step",
                        "每个 decode 步读取的字节数")),
            via="step/bandwidth",
            simplification=("W = {weight_bytes} against B × KV_seq = {kv_batch}: while B × KV_seq ≪ W, TPOT ≈ W / BW, "
                            "the floor no batch goes below, and each extra sequence adds only KV_seq / BW",),
            simplification_zh=("W = {weight_bytes}，B × KV_seq = {kv_batch}：只要 B × KV_seq ≪ W，TPOT ≈ W / BW，"
                               "这是 batch 再小也低不过的下限；每多一条序列只多 KV_seq / BW",),
            takeaway="decode is bandwidth-bound: TPOT = bytes read per step ÷ BW; at small batch the weight read "
                     "dominates, so batching raises throughput almost linearly at little cost in TPOT until the KV "
                     "reads catch up.",
            takeaway_zh="decode 受显存带宽限制：TPOT = 每步读取的字节数 ÷ 带宽；小 batch 时权重读取占大头，所以加大 batch "
                        "几乎线性地提高吞吐、TPOT 却涨得很少，直到 KV 读取追上来。",
            example={"bandwidth": 3e12, "weight_bytes": 140e9, "kv_bytes_per_seq": 1e9, "batch": 16},
            meaning_zh="一个访存受限 decode 步的时间（TPOT 的下限）：读一遍权重和每条序列的 KV Cache"),
    Formula("ttft", (PHI, Input("prompt_tokens", "count", "tokens in the prompt", "S_prompt", "prompt 的 token 数"),
                     PEAK, Input("mfu", "ratio", "utilisation the prefill reaches", "MFU", "prefill 达到的算力利用率")),
            "2*phi*prompt_tokens/(peak_flops*mfu)", "time",
            "time to first token: a compute-bound prefill of the prompt (2Φ FLOPs per token) at a given "
            "utilisation; queueing and the first decode step ignored",
            "C§4.2, C§3.1",
            (Misconception("training_flops_ttft", "used 6Φ per token (training) instead of 2Φ (forward)",
                           "6*phi*prompt_tokens/(peak_flops*mfu)", "每个 token 用了 6Φ（训练），应为 2Φ（前向）"),
             Misconception("no_mfu_ttft", NO_MFU[0], "2*phi*prompt_tokens/peak_flops", NO_MFU[1])), "TTFT",
            refs="pope2022, kipply2022, kaplan2020",
            decomposition=("prefill runs the whole prompt through the model in one forward pass: 2Φ FLOPs per token "
                           "(a multiply and an add per weight) × S_prompt tokens; those are large GEMMs, compute-bound, "
                           "so they run at peak × MFU",),
            decomposition_zh=("prefill 用一次前向把整个 prompt 过一遍模型：每个 token 2Φ FLOPs（每个权重一次乘一次加）"
                              "× S_prompt 个 token；这些是大矩阵乘，算力受限，所以按峰值 × MFU 的速度跑",),
            parts=(Part("work", "FLOPs", "2*phi*prompt_tokens", "flop", "forward FLOPs of the whole prompt",
                        "整个 prompt 的前向 FLOPs"),
                   Part("rate", "F_peak·MFU", "peak_flops*mfu", "flop_rate", "FLOP/s the prefill sustains",
                        "prefill 实际持续的算力")),
            via="work/rate",
            simplification=("2Φ per token leaves out attention over the prompt (Kaplan et al.: + 2 × L × S × d_model "
                            "FLOPs per token), small while S ≪ 12 × d_model: for long prompts the real TTFT is longer",),
            simplification_zh=("每 token 2Φ 没算注意力对整个 prompt 的计算（Kaplan 等：每 token 另加 2 × L × S × d_model "
                               "FLOPs），S ≪ 12 × d_model 时可以忽略；prompt 很长时实际 TTFT 更长",),
            takeaway="TTFT is set by compute (2Φ per prompt token at peak × MFU), TPOT by bandwidth: long prompts need "
                     "FLOP/s, long answers need bandwidth.",
            takeaway_zh="TTFT 由算力决定（每个 prompt token 2Φ，按峰值 × MFU 算），TPOT 由带宽决定：长 prompt 要算力，"
                        "长输出要带宽。",
            example={"phi": 7e10, "prompt_tokens": 2000, "peak_flops": 1000e12, "mfu": 0.5},
            meaning_zh="首 token 延迟：prompt 的 prefill 算力受限（每 token 2Φ FLOPs），按给定利用率计；忽略排队和第一个 "
                       "decode 步"),
    Formula("decode_attention_intensity", (Input("n_heads", "count", "query heads", "n_h"), N_KV, BPE),
            "2*n_heads/(n_kv_heads*bytes_per_elem)", "intensity",
            "FLOPs per byte of KV cache read by decode attention: each cached K/V element is used by the "
            "n_h/n_kv query heads of its group (2 FLOPs each); GQA raises it by the group size",
            "austin2025, ainslie2023, shazeer2019",
            (Misconception("mha_intensity", "ignored GQA (one query head per KV head)", "2/bytes_per_elem",
                           "忽略了 GQA（当成每个 KV 头只对应一个 Query 头）"),
             Misconception("elements_intensity", "counted elements, not bytes", "2*n_heads/n_kv_heads",
                           "算的是元素个数，不是字节数")), "I_attn",
            decomposition=("per cached token and KV head, decode reads K and V once: 2·d_head elements of `bytes` "
                           "each; each of the g = n_h / n_kv query heads sharing them does a multiply-add with every "
                           "element (q·k, then p·v): 2 FLOPs per element per query head",
                           "I = 2·g·(2·d_head) FLOPs ÷ (2·d_head·bytes) B = 2g / bytes",),
            decomposition_zh=("每个缓存的 token、每个 KV 头，decode 把 K 和 V 各读一次：2·d_head 个元素，每个 bytes 字节；"
                              "共享它们的 g = n_h / n_kv 个 Query 头对每个元素各做一次乘加（先 q·k，再 p·v）：每个元素"
                              "每个 Query 头 2 FLOPs",
                              "I = 2·g·(2·d_head) FLOPs ÷ (2·d_head·bytes) B = 2g / bytes",),
            parts=(Part("group", "g", "n_heads/n_kv_heads", "count", "query heads sharing one KV head",
                        "共享一个 KV 头的 Query 头数"),),
            via="2*group/bytes_per_elem",
            simplification=("d_head, the context length and the batch all cancel (every sequence reads its own "
                            "cache): MHA in bf16 (g = 1) is 1 FLOP/B, GQA with g = 8 is 8 FLOP/B, both far left of "
                            "a GPU's ridge point (~300 FLOP/B on an H100)",),
            simplification_zh=("d_head、上下文长度和 batch 都约掉了（每条序列读的是自己的缓存）：bf16 的 MHA（g = 1）是 "
                                "1 FLOP/B，g = 8 的 GQA 是 8 FLOP/B，都远在 GPU 的拐点（H100 约 300 FLOP/B）左侧",),
            takeaway="decode attention runs at {result} over its KV cache whatever the batch, so it is memory-bound "
                     "on every GPU: only sharing K/V across more query heads (GQA, MQA, MLA) or fewer bytes per "
                     "element raises it.",
            takeaway_zh="decode 阶段注意力对 KV Cache 的算术强度只有 {result}，和 batch 无关，所以在任何 GPU 上都是"
                        "访存受限：只有让更多 Query 头共享 K/V（GQA、MQA、MLA）或减少每个元素的字节数才能提高它。",
            example={"n_heads": 64, "n_kv_heads": 8, "bytes_per_elem": 2},
            meaning_zh="decode 阶段注意力的算术强度：每读一个字节的 KV Cache 做多少 FLOPs（GQA 按组大小提高它）"),
    Formula("mla_kv_bytes_per_token", (LAYERS, Input("kv_lora_rank", "count", "dimension of the compressed KV latent",
                                                     "d_c", "压缩 KV 潜向量的维度"),
                                       Input("rope_dim", "count", "dimension of the shared decoupled RoPE key", "d_R",
                                             "所有头共享的解耦 RoPE key 的维度"),
                                       BPE),
            "layers*(kv_lora_rank + rope_dim)*bytes_per_elem", "bytes",
            "KV cache bytes per token with multi-head latent attention: each layer caches one compressed latent "
            "and one RoPE key shared by all heads (no separate K and V)",
            "deepseek2024",
            (Misconception("k_and_v", "cached K and V separately (factor 2): MLA caches one latent for both",
                           "2*layers*(kv_lora_rank + rope_dim)*bytes_per_elem",
                           "把 K 和 V 分开缓存了（因子 2）：MLA 只为两者缓存一个潜向量"),
             Misconception("no_rope_key", "left out the decoupled RoPE key", "layers*kv_lora_rank*bytes_per_elem",
                           "漏了解耦的 RoPE key"),
             Misconception("one_layer_mla", "counted one layer, not all of them",
                           "(kv_lora_rank + rope_dim)*bytes_per_elem", "只算了一层，没有乘以层数")), "KV/token",
            decomposition=("per layer and token MLA caches one compressed latent c_KV of d_c values (every head's K "
                           "and V are up-projected from it) and one decoupled RoPE key of d_R values shared by all "
                           "heads: d_c + d_R values of `bytes` each, × L layers",),
            decomposition_zh=("MLA 每层每个 token 缓存一个 d_c 维的压缩潜向量 c_KV（所有头的 K 和 V 都由它上投影得到），"
                              "外加一个所有头共享的 d_R 维解耦 RoPE key：共 d_c + d_R 个值，每个 bytes 字节，再 × L 层",),
            parts=(Part("values", "d_c + d_R", "kv_lora_rank + rope_dim", "count", "values cached per layer and token",
                        "每层每个 token 缓存的值个数"),
                   Part("per_layer", "KV/layer", "(kv_lora_rank + rope_dim)*bytes_per_elem", "bytes", "latent + RoPE key of one layer",
                        "一层的潜向量加 RoPE key")),
            via="per_layer*layers",
            simplification=("against GQA's 2 × n_kv × d_head values per layer: d_c + d_R values are a GQA cache of "
                            "(d_c + d_R) / (2·d_head) KV heads; DeepSeek's 512 + 64 = 576 equal 2.25 heads of 128, "
                            "a typical GQA model has 8",),
            simplification_zh=("和 GQA 每层 2 × n_kv × d_head 个值相比：d_c + d_R 个值相当于 (d_c + d_R) / (2·d_head) 个 KV "
                               "头的 GQA 缓存；DeepSeek 的 512 + 64 = 576 相当于 2.25 个 128 维的头，而常见的 GQA 模型有 8 个",),
            takeaway="MLA caches {values} values per layer and token whatever the head count, against 2 × 8 × 128 = "
                     "2,048 for 8-head GQA: a several-times smaller cache is what buys long context at a large batch.",
            takeaway_zh="MLA 每层每个 token 只缓存 {values} 个值，与头数无关；8 个 KV 头的 GQA 要 2 × 8 × 128 = 2,048 个："
                        "缓存小好几倍，长上下文下才能跑大 batch。",
            example={"layers": 61, "kv_lora_rank": 512, "rope_dim": 64, "bytes_per_elem": 2},
            meaning_zh="多头潜在注意力（MLA）下每个 token 的 KV Cache 字节数：每层只缓存一个压缩潜向量和一个所有头共享的 "
                       "RoPE key（不再分别缓存 K 和 V）"),
    # ------------------------------------------------------------- quantisation
    Formula("quant_bits_per_weight", (Input("bits", "bits", "bits of each quantised weight", "b",
                                            "每个量化权重的位数"),
                                      Input("group_size", "count", "weights sharing one scale (and zero point)", "g",
                                            "共享一个缩放因子（和零点）的权重数"),
                                      Input("scale_bits", "bits", "bits of each group's scale", "b_scale",
                                            "每组缩放因子的位数"),
                                      Input("zero_bits", "bits", "bits of each group's zero point (0 if symmetric)",
                                            "b_zero", "每组零点的位数（对称量化为 0）")),
            "bits + (scale_bits + zero_bits)/group_size", "bits",
            "effective bits per weight of group quantisation: the weight's own bits plus its share of the "
            "group's scale and zero point",
            "frantar2022, lin2023",
            (Misconception("no_metadata", GROUP_SCALE[0], "bits", GROUP_SCALE[1]),
             Misconception("metadata_per_weight", "stored a scale for every weight instead of every group",
                           "bits + scale_bits + zero_bits", "给每个权重都存了一个缩放因子，而不是每组一个")), "bits/weight",
            decomposition=("each weight stores its own b bits; every group of g weights shares one scale (b_scale "
                           "bits) and, if asymmetric, one zero point (b_zero bits), so each weight carries 1/g of "
                           "them",),
            decomposition_zh=("每个权重自己占 b 位；每 g 个权重共享一个缩放因子（b_scale 位），非对称量化时还共享一个零点"
                              "（b_zero 位），所以每个权重分摊其中的 1/g",),
            parts=(Part("group_share", "b_group", "(scale_bits + zero_bits)/group_size", "bits",
                        "the group's scale and zero point, per weight", "分摊到每个权重的缩放因子与零点"),),
            via="bits + group_share",
            simplification=("the overhead is (b_scale + b_zero) / g = {group_share} per weight: halving g doubles it "
                            "(smaller groups are more accurate and cost more bits)",),
            simplification_zh=("开销是 (b_scale + b_zero) / g = 每个权重 {group_share}：g 减半，开销翻倍（组越小越准，"
                               "位数也越多）",),
            takeaway="each weight takes {result}, not {bits}: the group's scale (and zero point) is part of the model's "
                     "memory and of every byte a decode step reads.",
            takeaway_zh="每个权重实际占 {result}，不是 {bits}：分组的缩放因子（和零点）也算在模型显存里，也是每个 decode "
                        "步都要读的字节。",
            example={"bits": 4, "group_size": 128, "scale_bits": 16, "zero_bits": 0},
            meaning_zh="分组量化下每个权重的有效位数：权重自身的位数，加上分摊到它身上的分组缩放因子与零点"),
    # ---------------------------------------------------------- PagedAttention
    Formula("paged_kv_blocks", (Input("seq", "count", "tokens in the sequence", "S", "序列的 token 数"),
                                Input("block_size", "count", "tokens per KV block", "b", "每个 KV 块的 token 数")),
            "ceil(seq/block_size)", "count",
            "KV blocks one sequence holds with PagedAttention (the last block is partly empty: waste = "
            "blocks × block_size − S slots)",
            "kwon2023",
            (Misconception("rounded_down_blocks", "rounded down: the last tokens need a block too",
                           "floor(seq/block_size)", "向下取整了：最后几个 token 也要占一个块"),), "blocks",
            decomposition=("vLLM hands out the KV cache in fixed blocks of b tokens, one more whenever the last fills "
                           "up; S tokens need S / b blocks' worth, rounded up to whole blocks",),
            decomposition_zh=("vLLM 按固定大小的块分配 KV Cache，每块 b 个 token，最后一块写满才再分一块；S 个 token 需要 "
                              "S / b 块的量，向上取整到整块",),
            parts=(Part("full", "full", "floor(seq/block_size)", "count", "blocks the tokens fill completely",
                        "被写满的块"),
                   Part("rest", "rest", "seq - full*block_size", "count", "tokens left over for one more block",
                        "剩下的 token，还要再占一块")),
            via="full + ceil(rest/block_size)",
            simplification=("only the last block is partly filled: it holds {rest} of its {block_size} slots, so the "
                            "waste is blocks × b − S = b − rest, less than one block",),
            simplification_zh=("只有最后一块没填满：它的 {block_size} 个槽位只用了 {rest} 个，所以浪费 = 块数 × b − S = "
                               "b − rest，不到一块",),
            takeaway="paging allocates the KV cache a block at a time as tokens arrive, so a sequence wastes less than "
                     "one block instead of a max-length reservation: more requests fit, which is where vLLM's 2–4× "
                     "throughput comes from.",
            takeaway_zh="分页随着 token 的生成一块一块地分配 KV Cache，一条序列的浪费不到一块，而不是按最大长度整段预留："
                        "能放下更多请求，vLLM 2–4 倍的吞吐提升就来自这里。",
            example={"seq": 1000, "block_size": 16},
            meaning_zh="PagedAttention 下一条序列占用的 KV 块数（最后一块没填满：浪费 = 块数 × 块大小 − S 个槽位）"),
    # ----------------------------------------------------- speculative decoding
    Formula("spec_decode_tokens_per_step", (ACCEPT, DRAFT_K),
            "(1 - acceptance^(draft_tokens + 1))/(1 - acceptance)", "count",
            "expected tokens per target-model pass with speculative decoding: the accepted run of drafts plus "
            "the one token the target pass always yields (i.i.d. acceptance α, γ drafts)",
            "leviathan2023, chen2023",
            (Misconception("no_bonus_token", "counted only the accepted drafts (forgot the token the target pass adds)",
                           "(1 - acceptance^(draft_tokens + 1))/(1 - acceptance) - 1",
                           "只算了被接受的草稿 token（漏了目标模型这一轮自己产出的那个 token）"),
             Misconception("linear_acceptance", LINEAR_SPEC[0], "draft_tokens*acceptance + 1", LINEAR_SPEC[1])),
            "E[tokens]",
            decomposition=("the target pass always yields one token of its own (the fix at the first rejection, or a "
                           "bonus token when all γ pass); draft i counts only if drafts 1 … i are all accepted, with "
                           "probability α^i",
                           "E = 1 + α + α² + … + α^γ, a geometric series = (1 − α^(γ+1)) / (1 − α)"),
            decomposition_zh=("目标模型这一轮总会自己产出一个 token（在第一个被拒绝处给出修正，或在 γ 个全部通过时多给一个）；"
                              "第 i 个草稿只有在第 1 … i 个都被接受时才算数，概率为 α^i",
                              "E = 1 + α + α² + … + α^γ，等比数列求和 = (1 − α^(γ+1)) / (1 − α)"),
            parts=(Part("all_pass", "α^γ", "acceptance^draft_tokens", "ratio", "chance that all γ drafts are accepted",
                        "γ 个草稿全部被接受的概率"),
                   Part("limit", "1 / (1 − α)", "1/(1 - acceptance)", "count", "the limit as γ grows",
                        "γ 趋于无穷时的极限")),
            simplification=("as γ grows E → 1 / (1 − α) = {limit}: each extra draft adds only α^γ, and E never "
                            "exceeds γ + 1",),
            simplification_zh=("γ 越大，E → 1 / (1 − α) = {limit}：每多一个草稿只多 α^γ，E 也永远不超过 γ + 1",),
            takeaway="however long the draft, a target pass yields at most 1 / (1 − α) = {limit} tokens: raise the "
                     "acceptance rate (a better-aligned draft), not γ.",
            takeaway_zh="草稿再长，目标模型每次前向最多也只能产出 1 / (1 − α) = {limit} 个 token：要提高的是接受率"
                        "（更贴合目标模型的草稿），而不是 γ。",
            example={"acceptance": 0.8, "draft_tokens": 4},
            meaning_zh="投机解码中目标模型每次前向的期望 token 数：被接受的那段草稿，加上目标模型这一轮必然产出的一个 token"
                       "（接受率 α 独立同分布，γ 个草稿）"),
    Formula("spec_decode_speedup", (ACCEPT, DRAFT_K, Input("cost_ratio", "ratio", "one draft pass / one target pass",
                                                           "c", "一次草稿前向 / 一次目标前向的耗时")),
            "(1 - acceptance^(draft_tokens + 1))/((1 - acceptance)*(draft_tokens*cost_ratio + 1))", "ratio",
            "speed-up of speculative decoding over plain decoding: expected tokens per step over the cost of one "
            "step (γ draft passes at c each + one target pass)",
            "leviathan2023, chen2023",
            (Misconception("free_draft", "ignored the draft model's cost", "(1 - acceptance^(draft_tokens + 1))"
                           "/(1 - acceptance)", "忽略了草稿模型的开销"),
             Misconception("linear_acceptance_speedup", LINEAR_SPEC[0],
                           "(draft_tokens*acceptance + 1)/(draft_tokens*cost_ratio + 1)", LINEAR_SPEC[1])),
            "speed-up",
            decomposition=("plain decoding yields one token per target pass; a speculative step costs γ draft passes "
                           "at c each plus one target pass, γc + 1 target-pass times, and yields E = (1 − α^(γ+1)) / "
                           "(1 − α) tokens: speed-up = E ÷ (γc + 1)",),
            decomposition_zh=("普通 decode 每次目标前向产出一个 token；投机解码一步的开销是 γ 次草稿前向（每次 c）加一次目标前向，"
                              "即 γc + 1 次目标前向的时间，产出 E = (1 − α^(γ+1)) / (1 − α) 个 token：加速比 = E ÷ (γc + 1)",),
            parts=(Part("tokens", "E", "(1 - acceptance^(draft_tokens + 1))/(1 - acceptance)", "count",
                        "expected tokens per step", "每一步的期望 token 数"),
                   Part("cost", "γc + 1", "draft_tokens*cost_ratio + 1", "count",
                        "cost of one step, in target passes", "一步的开销，以目标前向次数计")),
            via="tokens/cost",
            simplification=("limits: a free draft (c → 0) gives the speed-up E itself, at most 1 / (1 − α); as γ "
                            "grows E stops growing while γc + 1 keeps rising, so the best γ is a few tokens",),
            simplification_zh=("极限：草稿不花时间（c → 0）时加速比就是 E，最多 1 / (1 − α)；γ 越大，E 不再增长而 γc + 1 "
                               "还在涨，所以最优的 γ 只有几个 token",),
            takeaway="the speed-up is tokens per step ÷ cost per step ({tokens} ÷ {cost} here): a cheap, well-aligned "
                     "draft (small c, high α) makes it pay; a long draft or a low acceptance turns it into a slow-down.",
            takeaway_zh="加速比 = 每步 token 数 ÷ 每步开销（这里是 {tokens} ÷ {cost}）：又便宜又贴合的草稿（c 小、α 高）才划算；"
                        "草稿太长或接受率太低反而会变慢。",
            example={"acceptance": 0.8, "draft_tokens": 4, "cost_ratio": 0.05},
            meaning_zh="投机解码相对普通 decode 的加速比：每步的期望 token 数除以每步的开销（γ 次草稿前向，每次 c，加一次目标前向）"),
    # --------------------------------------------------------------- Chinchilla
    Formula("chinchilla_tokens", (PHI,), "20*phi", "count",
            "compute-optimal training tokens for a model of Φ parameters (about 20 tokens per parameter)",
            "hoffmann2022",
            (Misconception("flops_per_token", "used 6 tokens per parameter (that is 6Φ, the FLOPs per token)",
                           "6*phi", "每个参数用了 6 个 token（6Φ 是每个 token 的 FLOPs）"),), "D_opt",
            decomposition=("Hoffmann et al. trained over 400 models at fixed compute budgets: the loss is lowest when "
                           "parameters and tokens grow together, at about 20 training tokens per parameter",),
            decomposition_zh=("Hoffmann 等在固定算力预算下训练了 400 多个模型：参数量和 token 数同步增长时 loss 最低，"
                              "最优点约为每个参数 20 个训练 token",),
            simplification=("such a run costs C = 6·Φ·D = 6·Φ·20Φ = 120·Φ² FLOPs",),
            simplification_zh=("这样一次训练的算力为 C = 6·Φ·D = 6·Φ·20Φ = 120·Φ² FLOPs",),
            takeaway="compute-optimal is about 20 tokens per parameter; models meant to be served are trained far "
                     "beyond it (Llama 3 8B saw 15T tokens), because a smaller model is cheaper at inference.",
            takeaway_zh="计算最优约为每个参数 20 个 token；要上线服务的模型会远超这个比例（Llama 3 8B 训练了 15T token），"
                        "因为小模型推理更便宜。",
            example={"phi": 7e10},
            meaning_zh="Φ 个参数的模型计算最优的训练 token 数（约每个参数 20 个 token）"),
    Formula("chinchilla_params", (Input("compute", "flop", "training compute budget", "C", "训练算力预算"),),
            "(compute/120)^0.5", "count",
            "compute-optimal parameter count for a budget C: C = 6·N·D with D = 20·N gives N = √(C/120)",
            "hoffmann2022",
            (Misconception("no_token_ratio", "used D = N (forgot the 20 tokens per parameter): √(C/6)",
                           "(compute/6)^0.5", "用了 D = N（漏了每参数 20 个 token）：√(C/6)"),
             Misconception("no_sqrt", "forgot the square root (C = 120·N², not 120·N)", "compute/120",
                           "忘了开平方（C = 120·N²，不是 120·N）"),
             Misconception("forward_only_chinchilla", "used C = 2·N·D (forward only): √(C/40)",
                           "(compute/40)^0.5", "用了 C = 2·N·D（只算前向）：√(C/40)")), "N_opt",
            refs="kaplan2020",
            decomposition=("training costs C = 6·N·D FLOPs (6 per parameter per token) and the compute-optimal data is "
                           "D = 20·N: C = 6·N·20N = 120·N², so N = √(C/120)",),
            decomposition_zh=("训练算力 C = 6·N·D FLOPs（每个参数每个 token 6 次），计算最优的数据量 D = 20·N："
                              "C = 6·N·20N = 120·N²，所以 N = √(C/120)",),
            parts=(Part("n_sq", "N²", "compute/120", "count", "C / 120", "C / 120"),),
            via="n_sq^0.5",
            simplification=("the tokens follow as D = 20·N: both grow as √C, so 10× the compute buys about 3.2× the "
                            "parameters and 3.2× the tokens",),
            simplification_zh=("token 数随之为 D = 20·N：两者都随 √C 增长，算力翻 10 倍，参数量和 token 数各约变为原来的 3.2 倍",),
            takeaway="at the Chinchilla optimum parameters and tokens both scale as √C: spend extra compute on data as "
                     "much as on model size.",
            takeaway_zh="在 Chinchilla 最优点，参数量和 token 数都随 √C 增长：多出的算力要同样花在数据上，而不只是加大模型。",
            example={"compute": 5.88e23},
            meaning_zh="给定算力预算 C 时计算最优的参数量：C = 6·N·D 且 D = 20·N，得 N = √(C/120)"),
)

# Added by the question bank beside part 2 (parallelism planning, TP communication, overlap, Chinchilla, 1F1B memory).
LAYER_BYTES = Input("layer_bytes", "bytes", "activation memory of one layer for one micro-batch", "M_act",
                    "一层在一个微批次上的激活显存")
BANK2: tuple[Formula, ...] = (
    Formula("param_count_approx", (LAYERS, Input("d_model", "count", "hidden size", "h")), "12*layers*d_model^2",
            "count",
            "rule-of-thumb parameter count of a transformer: 12·L·h² (4h² attention + 8h² for a 4h MLP per layer; "
            "embeddings, biases and norms ignored)",
            "kaplan2020",
            (Misconception("attention_only", "counted only the attention matrices (4h² per layer)", "4*layers*d_model^2",
                           "只算了注意力的矩阵（每层 4h²）"),
             Misconception("one_layer_params", "counted one layer, not all of them", "12*d_model^2",
                           "只算了一层，没有乘以层数")), "Φ_approx",
            decomposition=("per layer: attention has four h × h matrices (Q, K, V and the output projection) = 4h²; "
                           "the MLP has h × 4h up and 4h × h down = 8h²",
                           "12h² per layer × L layers; embeddings, biases and norms are left out"),
            decomposition_zh=("每层：注意力有 Q、K、V 和输出投影四个 h × h 矩阵 = 4h²；MLP 有 h × 4h 的升维和 4h × h "
                              "的降维 = 8h²",
                              "每层 12h² × L 层；忽略 embedding、偏置和归一化层"),
            parts=(Part("attn", "4h²", "4*d_model^2", "count", "attention Q, K, V, O of one layer",
                        "一层注意力的 Q、K、V、O"),
                   Part("mlp", "8h²", "8*d_model^2", "count", "MLP up and down projections of one layer",
                        "一层 MLP 的升维和降维"),),
            via="layers*(attn + mlp)",
            simplification=("a Llama-style layer differs (GQA shrinks K and V, a SwiGLU MLP is 3·h·d_ffn with "
                            "d_ffn ≈ 3.5h): its layers land within roughly 10 % of 12·L·h², and the embeddings 2·V·h "
                            "come on top",),
            simplification_zh=("Llama 式的层有所不同（GQA 缩小了 K 和 V，SwiGLU MLP 为 3·h·d_ffn，d_ffn ≈ 3.5h）："
                               "各层参数与 12·L·h² 相差约 10 % 以内，另外还要加上 embedding 的 2·V·h",),
            takeaway="12·L·h² is the ten-second size check: parameters grow linearly with depth but with the square "
                     "of the width.",
            takeaway_zh="12·L·h² 是十秒钟的规模估算：参数量随层数线性增长，随宽度按平方增长。",
            example={"layers": 32, "d_model": 4096},
            meaning_zh="Transformer 参数量的经验公式：12·L·h²（每层注意力 4h² + 4h 宽 MLP 的 8h²；"
                       "忽略 embedding、偏置和归一化层）"),
    Formula("tp_allreduce_time_layer", (S, B, H, BPE, Input("n_tp", "count", "tensor-parallel GPUs", "N_tp"),
                                        Input("link_bw", "bandwidth", "one-way link bandwidth per GPU", "β",
                                              "每卡链路的单向带宽")),
            "2*2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem/link_bw", "time",
            "time of one layer's tensor-parallel communication in the forward pass: two ring AllReduces of the "
            "s·b·h activation at the link's one-way bandwidth (latency ignored)",
            "shoeybi2019, patarasuk2009, thakur2005",  # Megatron-LM §3: two AllReduces per layer forward; ring cost
            (Misconception("one_allreduce_time", "counted one AllReduce per layer; attention and MLP each end in one",
                           "2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem/link_bw", "每层只算了一次 AllReduce；注意力和 MLP 各有一次"),
             Misconception("bidirectional_bw", "used the bidirectional NVLink figure (twice the one-way bandwidth)",
                           "2*2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem/(2*link_bw)",
                           "用了 NVLink 的双向带宽（是单向带宽的两倍）")), "T_TP/layer",
            decomposition=("Megatron TP ends attention and the MLP each in a ring AllReduce of the s·b·h activation: "
                           "two per layer in the forward pass; a ring AllReduce sends 2(N_tp−1)/N_tp × M from each GPU, "
                           "one way at a time, so the time is the bytes over the one-way bandwidth β",),
            decomposition_zh=("Megatron 张量并行的注意力和 MLP 各以一次对 s·b·h 激活的 Ring AllReduce 结束：每层前向两次；"
                              "一次 Ring AllReduce 每张卡发送 2(N_tp−1)/N_tp × M，同一时刻单向发送，所以耗时 = 字节数 ÷ "
                              "单向带宽 β",),
            parts=(Part("msg", "M", "s*b*h*bytes_per_elem", "bytes", "one activation tensor s·b·h",
                        "一个 s·b·h 激活张量"),
                   Part("vol", "V_TP", "2*2*(n_tp-1)/n_tp*msg", "bytes", "two ring AllReduces: bytes each GPU sends",
                        "两次 Ring AllReduce：每张卡发送的字节数")),
            via="vol/link_bw",
            simplification=("the α-β model adds 2(N_tp−1) steps of latency α per AllReduce; with M = {msg} the "
                            "bandwidth term dwarfs a few µs, so T ≈ V/β; as N_tp grows 2(N_tp−1)/N_tp → 2 and "
                            "T → 4M/β",),
            simplification_zh=("α-β 模型里每次 AllReduce 还有 2(N_tp−1) 步延迟 α；M = {msg} 时带宽项远大于几 µs 的延迟，"
                               "所以 T ≈ V/β；N_tp 增大时 2(N_tp−1)/N_tp → 2，T → 4M/β",),
            takeaway="this time sits on the critical path of every layer, twice forward and twice backward: over "
                     "NVLink it is a fraction of the layer's compute, over a 50 GB/s network port it can exceed it, "
                     "so TP stays inside a node.",
            takeaway_zh="这段时间在每一层的关键路径上，前向两次、反向两次：走 NVLink 时只占这一层计算时间的一小部分，"
                        "走 50 GB/s 的网卡端口就可能比计算还长，所以 TP 不出节点。",
            example={"s": 4096, "b": 1, "h": 8192, "bytes_per_elem": 2, "n_tp": 8, "link_bw": 450e9},
            meaning_zh="张量并行下一层前向的通信时间：对 s·b·h 激活做两次 Ring AllReduce，按链路单向带宽计（忽略延迟）"),
    Formula("nccl_algbw", (Input("size", "bytes", "message size of the collective", "S", "集合通信的消息大小"),
                           Input("time", "time", "measured time of one collective", "t", "一次集合通信的实测耗时")),
            "size/time", "bandwidth", "nccl-tests algorithm bandwidth: message size over time",
            "nccl_tests", (), "algbw",
            decomposition=("nccl-tests times one collective and divides the message size by that time: algbw = S / t, "
                           "the rate the application sees, with no factor for the algorithm",),
            decomposition_zh=("nccl-tests 测出一次集合通信的耗时，用消息大小除以它：algbw = S / t，即应用看到的速率，"
                              "不含任何算法因子",),
            simplification=("for an AllReduce algbw = busbw × N / (2(N−1)) → busbw / 2 for large N: even a saturated "
                            "link shows only about half its speed as algbw",),
            simplification_zh=("对 AllReduce 而言 algbw = busbw × N / (2(N−1))，N 很大时 → busbw / 2：链路即使跑满，"
                               "algbw 也只有其速率的一半左右",),
            takeaway="algbw is bytes over time as the application sees them: it depends on the collective and on N, so "
                     "it cannot be compared with a link speed as it stands.",
            takeaway_zh="algbw 是应用视角的字节数除以时间：它随集合通信的种类和 N 而变，不能直接拿来和链路速率比较。",
            example={"size": 1e9, "time": 0.02},
            meaning_zh="nccl-tests 的算法带宽：消息大小除以耗时"),
    Formula("tree_allreduce_time", (M_BYTES, Input("depth", "count", "tree depth ⌈log₂ N⌉", "log₂N",
                                                   "树的深度 ⌈log₂ N⌉"), ALPHA, BETA),
            "2*depth*alpha + 2*m/beta", "time",
            "AllReduce time on a (double binary) tree in the α-β model: reduce up and broadcast down, 2·log₂N latency "
            "steps; pipelined chunks keep the bandwidth term near 2M/β",
            "sanders2009, jeaugey2019",
            (Misconception("tree_one_way", "counted only the reduce (one trip up the tree), not the broadcast back down",
                           "depth*alpha + m/beta", "只算了向上归约（一趟），漏了向下广播"),), "T_tree",
            refs="thakur2005",
            decomposition=("the partial sums climb the tree's log₂N levels and the result is broadcast back down: "
                           "2·log₂N steps, each paying a latency α",
                           "the message is cut into chunks that stream through the tree, so the bytes cost about "
                           "2M/β (M up, M down), with no (N−1)/N discount"),
            decomposition_zh=("部分和沿树的 log₂N 层向上归约，结果再向下广播：共 2·log₂N 步，每步付一次延迟 α",
                              "消息切成分块在树上流水传输，字节的代价约为 2M/β（上行 M、下行 M），没有 (N−1)/N 折扣"),
            parts=(Part("lat", "T_α", "2*depth*alpha", "time", "latency term: 2·log₂N steps", "延迟项：2·log₂N 步"),
                   Part("bw", "T_β", "2*m/beta", "time", "bandwidth term", "带宽项")),
            via="lat + bw",
            simplification=("the latency grows as 2·log₂N·α against the ring's 2(N−1)·α, while the bandwidth terms "
                            "are nearly equal (2M/β vs 2(N−1)/N·M/β)",),
            simplification_zh=("延迟项按 2·log₂N·α 增长，而环形是 2(N−1)·α；两者的带宽项几乎相同（2M/β 对 "
                               "2(N−1)/N·M/β）",),
            takeaway="a tree's latency grows with log₂N, not N: on 1024 GPUs that is 20 latency steps instead of the "
                     "ring's 2046.",
            takeaway_zh="树形的延迟随 log₂N 而不是 N 增长：1024 张卡上只有 20 步延迟，而环形要 2046 步。",
            example={"m": 1e6, "depth": 7, "alpha": 5e-6, "beta": 50e9},
            meaning_zh="α-β 模型下（双二叉）树形 AllReduce 的耗时：向上归约、向下广播共 2·log₂N 步延迟；"
                       "分块流水使带宽项约为 2M/β"),
    Formula("ddp_exposed_comm_time", (Input("comm_time", "time", "total gradient AllReduce time of a step", "T_comm",
                                            "一步中梯度 AllReduce 的总耗时"),
                                      Input("backward_time", "time", "backward-pass compute time", "T_bwd",
                                            "反向传播的计算耗时"),
                                      Input("buckets", "count", "equal gradient buckets, reduced in order", "k",
                                            "等大的梯度桶数，按顺序归约")),
            "max(comm_time/buckets, comm_time - backward_time + backward_time/buckets)", "time",
            "communication left exposed after the backward pass with bucketed DDP: bucket i is AllReduced once its "
            "gradients are ready; the last bucket always waits for the end of the backward pass",
            "li2020",
            (Misconception("no_overlap", "assumed no overlap: the whole AllReduce after the backward pass",
                           "comm_time", "以为完全没有重叠：整个 AllReduce 都在反向结束后进行"),
             Misconception("no_last_bucket", "forgot the last bucket, which can only start when the backward pass ends",
                           "max(0, comm_time - backward_time)",
                           "忘了最后一个桶：它只能在反向结束后才开始")), "T_exposed",
            decomposition=("the backward pass fills a bucket every T_bwd/k; each bucket's AllReduce takes T_comm/k and "
                           "the buckets are reduced one after another",
                           "if the link keeps up (T_comm ≤ T_bwd) only the last bucket, ready when the backward pass "
                           "ends, is left: T_comm/k; if not, the AllReduces run back to back from T_bwd/k and end "
                           "T_bwd/k + T_comm − T_bwd after the backward pass"),
            decomposition_zh=("反向传播每 T_bwd/k 填满一个桶；每个桶的 AllReduce 耗时 T_comm/k，各桶依次归约",
                              "若链路跟得上（T_comm ≤ T_bwd），只剩反向结束时才就绪的最后一个桶：T_comm/k；"
                              "若跟不上，AllReduce 从 T_bwd/k 起一个接一个不停地跑，在反向结束后 "
                              "T_bwd/k + T_comm − T_bwd 才结束"),
            parts=(Part("first", "T_bwd/k", "backward_time/buckets", "time", "the first bucket is ready",
                        "第一个桶就绪的时刻"),
                   Part("last", "T_comm/k", "comm_time/buckets", "time", "one bucket's AllReduce: the last one's "
                        "starts when the backward pass ends", "一个桶的 AllReduce：最后一个桶在反向结束时才开始")),
            via="max(last, first + comm_time - backward_time)",
            simplification=("T_comm ≤ T_bwd: exposed = T_comm/k, and more buckets shrink it; T_comm > T_bwd: "
                            "exposed ≈ T_comm − T_bwd whatever k is",),
            simplification_zh=("T_comm ≤ T_bwd 时暴露时间 = T_comm/k，桶越多越小；T_comm > T_bwd 时暴露时间约为 "
                               "T_comm − T_bwd，与 k 无关",),
            takeaway="overlap hides communication only up to the length of the backward pass: beyond it, more buckets "
                     "do not help, only fewer bytes or a faster link.",
            takeaway_zh="重叠最多只能藏住反向传播那么长的通信：超出的部分分再多的桶也没用，只能减少字节或换更快的链路。",
            example={"comm_time": 0.1, "backward_time": 0.2, "buckets": 4},
            meaning_zh="分桶 DDP 在反向传播结束后仍暴露的通信时间：梯度就绪后第 i 个桶即开始 AllReduce；"
                       "最后一个桶总要等反向结束"),
    Formula("compute_budget", (N_GPUS, PEAK, Input("mfu", "ratio", "model FLOPs utilisation", "MFU"),
                               Input("time", "time", "wall-clock training time", "T", "训练的墙钟时间")),
            "n_gpus*peak_flops*mfu*time", "flop",
            "training compute a cluster delivers: GPUs × dense peak × MFU × time",
            "beyond the seeds (standard planning arithmetic)",
            (Misconception("no_mfu_budget", NO_MFU[0], "n_gpus*peak_flops*time", NO_MFU[1]),), "C",
            refs="chowdhery2022, hoffmann2022",
            decomposition=("work = rate × time: N GPUs × peak × MFU is the useful FLOP/s the cluster sustains, "
                           "× the seconds of training",),
            decomposition_zh=("工作量 = 速率 × 时间：N 张 GPU × 峰值 × MFU 是集群持续提供的有效算力，再乘以训练的秒数",),
            parts=(Part("rate", "N·F_peak·MFU", "n_gpus*peak_flops*mfu", "flop_rate", "useful FLOP/s of the cluster",
                        "集群的有效算力"),),
            via="rate*time",
            takeaway="C = N · peak · MFU · T is where sizing a run starts: the MFU you assume moves the budget as much "
                     "as the number of GPUs.",
            takeaway_zh="C = N · 峰值 · MFU · T 是规划一次训练的起点：假设的 MFU 对预算的影响和卡数一样大。",
            example={"n_gpus": 1024, "peak_flops": 1000e12, "mfu": 0.4, "time": 30 * 86400},
            meaning_zh="集群能提供的训练算力：GPU 数 × 稠密峰值 × MFU × 时间"),
    Formula("inflight_microbatches_1f1b", (P_STAGES, Input("stage", "count", "pipeline stage (1 = first)", "k",
                                                         "流水线阶段序号（1 为第一个）")),
            "p - stage + 1", "count",
            "micro-batches whose activations stage k holds at the peak of a 1F1B schedule (m ≥ P): the first stage "
            "runs P forwards before its first backward",
            "narayanan2021",
            (Misconception("gpipe_all", "kept every micro-batch of the step in flight (that is GPipe)", "m",
                           "让一步里所有微批次都同时在途（那是 GPipe）"),
             Misconception("one_inflight", "kept one micro-batch in flight (no pipelining)", "1",
                           "只让一个微批次在途（没有流水）")), "in-flight",
            decomposition=("warm-up: the first backward can start only when micro-batch 1 has passed all P stages, so "
                           "stage k has run P − k + 1 forwards by then (the first stage P, the last one 1)",
                           "steady state: one forward, one backward; each backward frees a micro-batch as the next "
                           "forward adds one, so the count stays at P − k + 1 whatever m is"),
            decomposition_zh=("预热：第 1 个微批次走完全部 P 个阶段后才能开始第一次反向，此时第 k 个阶段已做了 "
                              "P − k + 1 次前向（第一阶段 P 次，最后一个阶段 1 次）",
                              "稳态：一次前向、一次反向交替；每次反向释放一个微批次，下一次前向再加入一个，所以无论 m "
                              "多大，在途数都保持 P − k + 1"),
            simplification=("the first stage holds the most (P micro-batches), the last just 1: pipeline activation "
                            "memory is uneven, and the first stage sets the limit",),
            simplification_zh=("第一阶段持有最多（P 个微批次），最后一个阶段只有 1 个：流水线的激活显存并不均匀，"
                               "第一阶段决定上限",),
            takeaway="1F1B caps the in-flight micro-batches at P, independent of m: unlike GPipe, more micro-batches "
                     "shrink the bubble without costing activation memory.",
            takeaway_zh="1F1B 把在途微批次数限制在 P 个以内，与 m 无关：不像 GPipe，增加微批次能缩小气泡却不增加激活显存。",
            example={"p": 8, "stage": 1},
            meaning_zh="1F1B 调度（m ≥ P）峰值时第 k 个阶段保存激活值的微批次数：第一阶段在第一次反向前要做 P 次前向"),
    Formula("stage_activation_bytes", (Input("inflight", "count", "micro-batches in flight on the stage", "n_inflight",
                                             "该阶段在途的微批次数"),
                                       Input("stage_layers", "count", "layers on the stage", "L_stage",
                                             "该阶段的层数"), LAYER_BYTES),
            "inflight*stage_layers*layer_bytes", "bytes",
            "activation memory a pipeline stage holds: its layers' activations for each in-flight micro-batch",
            "korthikanti2022, narayanan2021",
            (Misconception("one_microbatch", "stored one micro-batch only", "stage_layers*layer_bytes",
                           "只存了一个微批次"),), "M_stage",
            decomposition=("a micro-batch's activations stay on the stage from its forward until its backward: each of "
                           "the n_inflight micro-batches keeps L_stage layers × M_act",),
            decomposition_zh=("一个微批次的激活值从它的前向一直保留到它的反向：n_inflight 个在途微批次，每个都保存 "
                              "L_stage 层 × M_act",),
            parts=(Part("per_mb", "L_stage·M_act", "stage_layers*layer_bytes", "bytes",
                        "one micro-batch through the stage's layers", "一个微批次在该阶段所有层上的激活值"),),
            via="inflight*per_mb",
            takeaway="a stage's activation memory is micro-batches in flight × its layers' activations: the schedule "
                     "(1F1B at most P, GPipe all m), not the model, sets the multiplier.",
            takeaway_zh="一个阶段的激活显存 = 在途微批次数 × 该阶段各层的激活值：这个倍数由调度决定"
                        "（1F1B 最多 P，GPipe 为全部 m），而不是模型。",
            example={"inflight": 8, "stage_layers": 10, "layer_bytes": 200e6},
            meaning_zh="流水线一个阶段保存的激活显存：每个在途微批次在该阶段各层上的激活值"),
    Formula("interleaved_activation_factor", (P_STAGES, Input("v", "count", "virtual stages per GPU", "v")),
            "1 + (p-1)/(p*v)", "count",
            "activation memory of the first stage with interleaved 1F1B relative to plain 1F1B",
            "korthikanti2022, narayanan2021",
            (Misconception("free_interleaving", "assumed interleaving costs no extra activation memory", "1",
                           "以为交错调度不增加激活显存"),
             Misconception("extra_only", "gave only the extra part (P−1)/(P·v), not the total factor", "(p-1)/(p*v)",
                           "只给了额外的部分 (P−1)/(P·v)，不是总倍数")), "factor",
            decomposition=("plain 1F1B: the first GPU holds P micro-batches × its L/P layers = L layers' worth of "
                           "activations",
                           "interleaved: the first GPU's chunks are L/(P·v) layers each, and its warm-up keeps P·v + "
                           "P − 1 micro-batch chunks in flight: (P·v + P − 1) × L/(P·v) = L × (1 + (P−1)/(P·v))"),
            decomposition_zh=("普通 1F1B：第一张 GPU 保存 P 个微批次 × 它的 L/P 层 = L 层的激活值",
                              "交错式：第一张 GPU 的每个模型块只有 L/(P·v) 层，而预热期要让 P·v + P − 1 个"
                              "“微批次 × 模型块”在途：(P·v + P − 1) × L/(P·v) = L × (1 + (P−1)/(P·v))"),
            parts=(Part("chunks", "P·v + P − 1", "p*v + p - 1", "count", "micro-batch chunks in flight on the first GPU",
                        "第一张 GPU 上在途的“微批次 × 模型块”数"),),
            via="chunks/(p*v)",
            simplification=("→ 1 + 1/v for large P: v = 2 costs up to 50 % more activation memory on the first stage",),
            simplification_zh=("P 很大时 → 1 + 1/v：v = 2 时第一阶段的激活显存最多多出 50 %",),
            takeaway="interleaving buys a v-fold smaller bubble with up to (1 + 1/v)× the first stage's activations "
                     "and v× the point-to-point messages.",
            takeaway_zh="交错调度用第一阶段最多 (1 + 1/v) 倍的激活显存和 v 倍的点对点通信，换来缩小到 1/v 的气泡。",
            example={"p": 4, "v": 2},
            meaning_zh="交错式 1F1B 下第一阶段的激活显存相对普通 1F1B 的倍数"),
    Formula("step_time_with_bubble", (Input("compute_time", "time", "busy compute time of a step", "T_compute",
                                            "一步中的忙碌计算时间"),
                                      Input("bubble", "ratio", "bubble: idle share of the total step time", "bubble",
                                            "气泡率：空闲时间占一步总时间的比例")),
            "compute_time/(1 - bubble)", "time",
            "step time once the pipeline bubble is added: the busy time is (1 − bubble) of the total",
            "C§6.1 (bubble as a share of total time)",
            (Misconception("ideal_time", "treated the bubble as a share of the ideal time: T·(1 + bubble)",
                           "compute_time*(1 + bubble)", "把气泡当成了相对理想时间的比例：T·(1 + 气泡率)"),
             Misconception("no_bubble", "left the bubble out", "compute_time", "漏掉了气泡")), "T_step",
            refs="narayanan2021",
            decomposition=("the bubble is a share of the TOTAL step: the GPUs compute for (1 − bubble) × T_step, so "
                           "T_step = T_compute / (1 − bubble)",),
            decomposition_zh=("气泡率是占一步总时间的比例：GPU 只有 (1 − 气泡率) × T_step 在计算，所以 "
                              "T_step = T_compute / (1 − 气泡率)",),
            parts=(Part("busy", "1 − bubble", "1 - bubble", "ratio", "share of the step the GPUs compute",
                        "一步中 GPU 在计算的比例"),),
            via="compute_time/busy",
            simplification=("for a small bubble 1/(1 − b) ≈ 1 + b, which is why T·(1 + b) comes out close but short; "
                            "the gap grows with b: a 50 % bubble doubles the step",),
            simplification_zh=("气泡率小时 1/(1 − b) ≈ 1 + b，所以 T·(1 + b) 很接近但偏小；b 越大差得越多："
                               "50 % 的气泡让一步的时间翻倍",),
            takeaway="the bubble is paid in wall-clock time: every GPU idles {bubble} of each {result} step; more "
                     "micro-batches per step (m ≫ P) or interleaved stages shrink it.",
            takeaway_zh="气泡是实打实的墙钟时间：每一步 {result} 里每张卡都有 {bubble} 在空等；每步多放微批次（m ≫ P）"
                        "或用交错式调度可以缩小它。",
            example={"compute_time": 10.0, "bubble": 0.2},
            meaning_zh="加上流水线气泡后的一步时间：忙碌时间只占总时间的 (1 − 气泡率)"),
)

CATALOGUE = CATALOGUE + PART2 + BANK2

FORMULAS: dict[str, Formula] = {f.name: f for f in CATALOGUE}


def get(name: str) -> Formula:
    try:
        return FORMULAS[name]
    except KeyError:
        import difflib

        near = difflib.get_close_matches(name, FORMULAS, n=3)
        hint = say("formula.did_you_mean", names=join(near, en=" or ", zh=" 或 ")) if near else ""
        raise FormulaError(say("formula.unknown", name=name, hint=hint)) from None


def classify_bound(intensity: float, ridge: float) -> str:
    """``memory-bound`` if intensity < ridge point else ``compute-bound`` (R§3, C§5)."""
    return "memory-bound" if intensity < ridge else "compute-bound"


def ridge_line(peak: float, bandwidth: float) -> str:
    """``I* = F_peak / BW = 989 TFLOP/s ÷ 3.35 TB/s = 295.2 FLOP/B``: where the ridge point comes from."""
    ridge = peak / bandwidth
    return (f"I* = F_peak / BW = {fmt_quantity(peak, 'flop_rate')} ÷ {fmt_quantity(bandwidth, 'bandwidth')}"
            f" = {fmt_number(ridge)} FLOP/B")


def bound_solution(intensity: float, ridge: float, peak: float | None = None,
                   bandwidth: float | None = None) -> list[str]:
    """The worked solution of a classification: compare I with the ridge point I*
    (computed from peak ÷ bandwidth first when they are given)."""
    verdict = classify_bound(intensity, ridge)
    rel = "<" if intensity < ridge else "≥"
    limit = "memory bandwidth" if verdict == "memory-bound" else "peak compute"
    return [
        *([ridge_line(peak, bandwidth)] if peak and bandwidth else []),
        "bound = memory-bound if I < I* else compute-bound",
        f"  I = {fmt_number(intensity)} FLOP/B {rel} I* = {fmt_number(ridge)} FLOP/B",
        f"  = {verdict} (limited by {limit})",
    ]
