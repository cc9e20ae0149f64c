"""The conventions a learner can choose: Settings → conventions and ``--convention key=value``.

A problem is identified by its template, its seed and the conventions it was drawn under.  Each choosable
convention is a :class:`Choosable`: its key (the name ``--convention`` and the profile use), the values a
learner may pick (the first is the default, the seeds' value), and the formula inputs it sets.  Only what
the spec's "Conventions are inputs" table lists is choosable, and only where the spec allows it:

* ``bytes_per_param`` 16 / 18 / 20 sets the static bytes per parameter and the ZeRO stages' ``recipe``
  together (10 and 12 are recognised by the grader, not choosable: no ZeRO recipe keeps them);
* ``flops_per_param_token`` 6 / 8 only where training FLOPs are counted without an MFU (MFU counts 6Φ by
  definition: 8Φ with an MFU counts the recompute twice);
* ``tokens_per_param`` 20 / 21 (Chinchilla's Table 3) on the compute-optimal formulas;
* ``ring_factor`` exact / approx only where N ≥ 8 (below that dropping (N−1)/N is the named slip);
* ``directions`` 1 / 2 only on a physical ring or torus link (TPU ICI), never NVLink or a switch.

A convention belongs to the formula, not the template: every step whose formula takes the convention's input
(a quiet input of its groups) counts with the learner's value, in every template, where the spec allows it
(:func:`applies`).  A template names a convention (``@template(..., conventions=...)``) only to state it even
at its default (its text teaches it); any other problem states a convention only when it counts with a value
off the default.  A problem that keeps a value whatever the choice (its ask gives the input, or the spec does
not allow the choice there) lists it as fixed and says so (:func:`kept_statement`).  A set is stored (profile setting ``conventions``,
a review row's optional ``conventions``) as a dict of the keys whose value is not the default: ``{}`` is the
seeds' conventions, and a row without the field was graded under them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.langs import EN
from engine.records import NamedTuple

from .messages import pick


class Choosable(NamedTuple):
    key: str
    label: str  # "bytes per parameter"
    label_zh: str
    groups: tuple[str, ...]  # its groups of engine.formulas.conventions (the first gives the values): the inputs set
    statements: Mapping[str, tuple[str, str]]  # value -> what a problem states under it (en, zh)

    @property
    def rows(self):
        """Its selectable rows of the conventions table (engine.formulas.conventions), the default first."""
        from .formulas import conventions

        rows = [r for r in conventions.rows(self.groups[0]) if r.selectable]
        return tuple(sorted(rows, key=lambda r: not r.default))

    @property
    def values(self) -> tuple[str, ...]:
        """The values a learner may choose (the table's selectable rows; the first is the default)."""
        return tuple(r.key for r in self.rows)

    @property
    def default(self) -> str:
        return self.values[0]

    def label_in(self, lang: str = EN) -> str:
        return pick(lang, self.label, self.label_zh)

    def statement(self, value: str, lang: str = EN) -> str:
        return pick(lang, *self.statements[value])

    def choices_text(self, lang: str = EN) -> str:
        """``16 the ZeRO paper · 18 ML Engineering (Bekman) and Megatron-LM · ...``: each value and who uses it (from
        the conventions table: its "who", else what it counts)."""
        return " · ".join(f"{r.key} {r.who_in(lang) or r.counts_in(lang)}" for r in self.rows)


# A recipe's bytes per parameter: (weights, gradients, optimizer) as ZeRO splits them (engine/formulas/inputs.py).
RECIPE_SPLIT = {"16": (2, 2, 12), "18": (2, 4, 12), "20": (2, 2, 16)}

CHOOSABLE: tuple[Choosable, ...] = (
    Choosable(
        "bytes_per_param", "bytes per parameter", "每个参数的字节数", ("train_bytes", "zero_recipe"),
        {"16": ("Training state per parameter as the ZeRO paper counts it: bf16 weights and gradients, fp32 master "
                "weights, momentum and variance.",
                "每个参数的训练状态按 ZeRO 论文的算法：bf16 权重和梯度，fp32 主权重、一阶动量和二阶动量。"),
         "18": ("Training state per parameter as ML Engineering (Bekman) and Megatron-LM count it: bf16 weights, "
                "fp32 gradients, fp32 master weights, momentum and variance.",
                "每个参数的训练状态按 ML Engineering（Bekman）和 Megatron-LM 的算法：bf16 权重，fp32 梯度，"
                "fp32 主权重、一阶动量和二阶动量。"),
         "20": ("Training state per parameter as the Ultra-Scale Playbook and Megatron-LM count it: bf16 weights and "
                "gradients, fp32 main gradients, master weights, momentum and variance (ZeRO shards the fp32 main "
                "gradients with the optimizer states).",
                "每个参数的训练状态按 Ultra-Scale Playbook 和 Megatron-LM 的算法：bf16 权重和梯度，fp32 主梯度、"
                "主权重、一阶动量和二阶动量（ZeRO 把 fp32 主梯度和优化器状态一起切分）。")}),
    Choosable(
        "flops_per_param_token", "training FLOPs per parameter per token", "每个参数每个 token 的训练 FLOPs",
        ("flops_per_token",),
        {"6": ("Count model FLOPs, no recomputation (as Kaplan and Chinchilla do).",
               "按模型 FLOPs 计，不含重计算（Kaplan、Chinchilla 的算法）。"),
         "8": ("Count hardware FLOPs with full activation recompute: the forward pass runs twice (as Megatron-LM "
               "and ML Engineering do).",
               "按完全激活重计算时的硬件 FLOPs 计：前向跑两遍（Megatron-LM、ML Engineering 的算法）。")}),
    Choosable(
        "tokens_per_param", "compute-optimal tokens per parameter", "计算最优时每个参数的 token 数",
        ("tokens_per_param",),
        {"20": ("Compute-optimal training uses 20 tokens per parameter (Chinchilla's rule of thumb).",
                "计算最优的训练每个参数用 20 个 token（Chinchilla 的经验值）。"),
         "21": ("Compute-optimal training uses 21 tokens per parameter (Chinchilla's Table 3: 20.0-22.4 across sizes).",
                "计算最优的训练每个参数用 21 个 token（Chinchilla 表 3：不同规模在 20.0-22.4 之间）。")}),
    Choosable(
        "ring_factor", "ring factor (N−1)/N", "环形因子 (N−1)/N", ("ring_factor",),
        {"exact": ("Keep the ring's exact (N−1)/N factor.", "保留环形的精确因子 (N−1)/N。"),
         "approx": ("Take the ring's (N−1)/N as 1, as for large N (the JAX scaling book).",
                    "把环形的 (N−1)/N 取作 1，按 N 很大时处理（JAX scaling book 的算法）。")}),
    Choosable(
        "directions", "ring link directions", "环上链路的方向数", ("ring_directions",),
        {"1": ("Each ring link carries data one way: β is its one-way bandwidth.",
               "环上每条链路单向传输：β 是它的单向带宽。"),
         "2": ("The ring runs both ways at once over each ICI link, half the data each way (as the JAX scaling book "
               "counts it); β is one way of one link.",
               "环在每条 ICI 链路上双向同时传输，每个方向各传一半数据（JAX scaling book 的算法）；β 是一条链路的单向带宽。")}),
)
BY_KEY: dict[str, Choosable] = {c.key: c for c in CHOOSABLE}


# How a title or a prompt writes the default of a convention it counts with, and the same under another value:
# ``Total training FLOPs (6ΦD)`` reads ``(8ΦD)`` under flops_per_param_token=8 (:func:`rendered`).
# (MFU's own 6ΦD, "6ΦD ÷ MFU", stays: MFU counts 6Φ by definition.)
TOKENS: dict[str, tuple[tuple[str, str], ...]] = {
    "flops_per_param_token": ((r"(?<![\d.])6ΦD(?!\s*÷\s*MFU)", "{}ΦD"),),
    "bytes_per_param": ((r"(?<![\d.])16(Φ| B per parameter)", "{}\\1"), (r"每参数 16 B", "每参数 {} B"))}


def rendered(text: str, conventions: Mapping[str, str] | None) -> str:
    """``text`` (written at the defaults) with each convention of ``conventions`` off its default written by its
    value (:data:`TOKENS`)."""
    import re

    for key, value in canonical(conventions).items():
        for pattern, shown in TOKENS.get(key, ()):
            text = re.sub(pattern, shown.format(value), text)
    return text


# Why a problem keeps a convention's value whatever the learner chose, by the condition of the conventions table
# that refuses the choice (engine.formulas.conventions.WHEN); "" is a value the problem itself gives.
KEPT_WHY = {
    "no_mfu": ("MFU counts 6Φ per token by definition (8ΦD ÷ HFU = 6ΦD ÷ MFU: the same time).",
               "MFU 按定义计 6Φ（8ΦD ÷ HFU = 6ΦD ÷ MFU：时间相同）。"),
    "large_n": ("the ring is small, so dropping (N−1)/N would be a mistake here.", "环很小，这里省略 (N−1)/N 就是错误。"),
    "torus": ("the link is not a TPU ICI ring or torus link.", "这条链路不是 TPU ICI 的环或 torus 链路。"),
    "": ("the problem gives the value.", "题目给定了这个值。"),
}
# The sentence a problem says when it counts 8Φ per token and a later step divides by an MFU: the time stays the
# same because MFU is defined with 6Φ (question_bank.steps divides by HFU = MFU × 8/6 there).
HFU_NOTE = ("MFU counts 6Φ per token by definition, so with {k}Φ counted the time divides by HFU = MFU × {k}/6: "
            "{k}ΦD ÷ HFU = 6ΦD ÷ MFU, the same time.",
            "MFU 按定义计 6Φ，所以按 {k}Φ 计时，时间要除以 HFU = MFU × {k}/6：{k}ΦD ÷ HFU = 6ΦD ÷ MFU，时间不变。")


def kept_statement(key: str, value: str, why: str, lang: str = EN) -> str:
    """``This problem keeps training FLOPs per parameter per token at 6 whatever you chose: MFU counts ...``."""
    c = BY_KEY[key]
    reason = pick(lang, *KEPT_WHY.get(why, KEPT_WHY[""]))
    return pick(lang, f"This problem keeps {c.label} at {value} whatever convention you chose: {reason}",
                f"无论选择哪种约定，本题的{c.label_zh} 都取 {value}：{reason}")


class ConventionError(ValueError):
    """A convention that cannot be read: ``en`` and ``zh`` name the valid keys or values."""

    def __init__(self, en: str, zh: str) -> None:
        super().__init__(en)
        self.en, self.zh = en, zh

    def text(self, lang: str = EN) -> str:
        return pick(lang, self.en, self.zh)


def valid_text(lang: str = EN) -> str:
    """``bytes_per_param=16|18|20, flops_per_param_token=6|8, ...``: what may be chosen."""
    return ", ".join(f"{c.key}={'|'.join(c.values)}" for c in CHOOSABLE)


def canonical(conventions: Mapping[str, str] | None) -> dict[str, str]:
    """The set without the keys at their default, in :data:`CHOOSABLE`'s order (``{}``: the seeds')."""
    if not conventions:
        return {}
    return {c.key: conventions[c.key] for c in CHOOSABLE if conventions.get(c.key, c.default) != c.default}


def read_one(text: str) -> tuple[str, str]:
    """``key=value`` -> (key, value); :class:`ConventionError` naming the valid keys or values."""
    key, eq, value = (text or "").partition("=")
    key, value = key.strip(), value.strip()
    if not eq or not key or not value:
        raise ConventionError(f"a convention is written key=value, not {text[:60]!r} (one of: {valid_text()})",
                              f"约定写作 key=value，而不是 {text[:60]!r}（可选：{valid_text()}）")
    c = BY_KEY.get(key)
    if c is None:
        raise ConventionError(f"no convention is named {key[:40]!r} (one of: {valid_text()})",
                              f"没有名为 {key[:40]!r} 的约定（可选：{valid_text()}）")
    if value not in c.values:
        raise ConventionError(f"{key} is one of {', '.join(c.values)}, not {value[:20]!r}",
                              f"{key} 只能取 {', '.join(c.values)}，不能是 {value[:20]!r}")
    return key, value


def read(texts: list[str] | tuple[str, ...] | str | None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``--convention key=value`` texts (or one text of them separated by commas or spaces) over ``base``:
    the canonical set.  A key given twice takes the last value."""
    if isinstance(texts, str):
        texts = [t for t in texts.replace(",", " ").split() if t]
    out = dict(base or {})
    for text in texts or ():
        key, value = read_one(text)
        out[key] = value
    return canonical(out)


def problem(value: Any) -> str | None:
    """Why ``value`` is not a stored convention set (a dict of choosable keys to their non-default values)."""
    if type(value) is not dict:
        return f"conventions must be an object of key: value, not {value!r:.80}"
    for k, v in value.items():
        c = BY_KEY.get(k) if type(k) is str else None
        if c is None:
            return f"conventions: unknown convention {k!r:.40} (one of {', '.join(BY_KEY)})"
        if type(v) is not str or v not in c.values:
            return f"conventions: {k} is one of {', '.join(c.values)}, not {v!r:.40}"
    return None


def described(conventions: Mapping[str, str], lang: str = EN) -> str:
    """``bytes per parameter 18, ring factor approx`` (``;`` between them in Chinese)."""
    sep = pick(lang, ", ", "；")
    return sep.join(f"{BY_KEY[k].label_in(lang)} {v}" for k, v in canonical(conventions).items())


def flags(conventions: Mapping[str, str]) -> str:
    """`` --convention bytes_per_param=18`` for each key off its default (what ``drill check`` needs again)."""
    return "".join(f" --convention {k}={v}" for k, v in canonical(conventions).items())


def input_values(key: str, value: str) -> dict[str, float]:
    """The formula inputs ``key=value`` sets, from the conventions table: ``bytes_per_param=18`` -> bytes_per_param
    18 and recipe 18."""
    from .formulas import conventions

    return {r.input: r.value for g in BY_KEY[key].groups for r in conventions.rows(g) if r.key == value}


def takes(key: str, formula: Any) -> tuple[str, ...]:
    """The inputs of ``formula`` that convention ``key`` sets: its quiet inputs of the key's groups (a given of the
    same name, a weights_bytes' bytes_per_param, is not the convention)."""
    return tuple(i.name for i in formula.inputs if i.quiet and i.convention in BY_KEY[key].groups)


def condition(key: str, value: str) -> str:
    """The condition (engine.formulas.conventions.WHEN) under which ``key=value`` is allowed ("" for always)."""
    from .formulas import conventions

    return next((r.when for g in BY_KEY[key].groups for r in conventions.rows(g) if r.key == value and r.when), "")


def applies(key: str, value: str, inputs: Mapping[str, Any], worlds: tuple[Any, ...] = ()) -> bool:
    """Whether the spec allows ``key=value`` for a step whose formula reads ``inputs`` in a problem of ``worlds``:
    the condition of its row of the conventions table (a large ring, a torus link, no MFU on top)."""
    from .formulas import conventions

    return all(conventions.applies(r, inputs, worlds) for g in BY_KEY[key].groups for r in conventions.rows(g)
               if r.key == value)
