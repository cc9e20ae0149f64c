"""The conventions a learner can choose: Settings → conventions and ``--convention key=value``.

A problem is identified by its template, its seed and the conventions it was drawn under.  Each choosable
convention is a :class:`Choosable`: its key (the name ``--convention`` and the profile use), the values a
learner may pick (the first is the default, the seeds' value), and the formula inputs it sets.  Only what
the spec's "Conventions are inputs" table lists is choosable, and only where the spec allows it:

* ``bytes_per_param`` 16 / 18 / 20 and the keyed recipes ``12_fp8`` (DeepSeek-V3's FP8 recipe), ``10_adam8bit``
  (8-bit Adam) and ``12_one_state`` (one fp32 optimizer state) set the static bytes per parameter and the ZeRO
  stages' ``recipe`` together (the bare 10 and 12 of part 3 are recognised by the grader, not choosable; the FP8
  recipe's split over the ZeRO stages is not published, so a ZeRO problem keeps 16 under it and says so);
* ``flops_per_param_token`` 6 / 8 only where training FLOPs are counted without an MFU (MFU counts 6Φ by
  definition: 8Φ with an MFU counts the recompute twice);
* ``tokens_per_param`` 20 / 21 (Chinchilla's Table 3) on the compute-optimal formulas;
* ``ring_factor`` exact / approx only where N ≥ 8 (below that dropping (N−1)/N is the named slip);
* ``directions`` 1 / 2 only on a physical ring or torus link (TPU ICI), never NVLink or a switch;
* ``sender_copies`` ``replicas`` (point to point, the input's own value) / ``1`` (a broadcast) for a weight sync;
* ``count_local`` true / false for MoE all-to-all bytes, false only where the problem gives the EP degree;
* ``latency_steps`` ring / one_shot for TP decode all-reduces;
* ``bytes_per_token`` 2 / 4 for stored training tokens and ``merge`` 1 / 2 for vision tokens.

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
from functools import cache
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
        return _selectable(self.groups[0])[0]

    @property
    def values(self) -> tuple[str, ...]:
        """The values a learner may choose (the table's selectable rows; the first is the default)."""
        return _selectable(self.groups[0])[1]

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


@cache  # a few groups; every number step reads every choosable convention's default
def _selectable(group: str) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The selectable rows of ``group`` (the default first) and their keys."""
    from .formulas import conventions

    rows = sorted((r for r in conventions.rows(group) if r.selectable), key=lambda r: not r.default)
    return tuple(rows), tuple(r.key for r in rows)


# A recipe's bytes per parameter: (weights, gradients, optimizer) as ZeRO splits them (engine/formulas/inputs.py).
# The optimizer part is what ZeRO-1 shards: the fp32 master weights with the optimizer's states, as the ZeRO paper
# counts them.  DeepSeek-V3's FP8 recipe (12_fp8) has no row: its report gives the 12 B (fp32 master weights and
# gradients, bf16 moments) but not which of them a ZeRO stage keeps whole, since no bf16 copy of the weights is kept.
RECIPE_SPLIT = {"16": (2, 2, 12), "18": (2, 4, 12), "20": (2, 2, 16), "10_adam8bit": (2, 2, 6), "12_one_state": (2, 2, 8)}
# What the optimizer part of a recipe off AdamW's holds (en, zh), and what a text calls it: the words of a problem
# that splits the recipe.
RECIPE_OPTIMIZER = {
    "10_adam8bit": ("6 B optimizer state of 8-bit Adam (fp32 master weights 4 B, 8-bit momentum 1 B, 8-bit variance "
                    "1 B)", "6 B 的 8 位 Adam 优化器状态（fp32 主权重 4 B、8 位一阶动量 1 B、8 位二阶动量 1 B）"),
    "12_one_state": ("8 B optimizer state of a one-state optimizer such as SGD with momentum, Lion or Muon (fp32 "
                     "master weights 4 B, fp32 momentum 4 B)",
                     "8 B 的单状态优化器（带动量的 SGD、Lion、Muon）状态（fp32 主权重 4 B、fp32 动量 4 B）"),
}
RECIPE_OPTIMIZER_NAME = {"10_adam8bit": ("8-bit Adam states", "8 位 Adam 状态"),
                         "12_one_state": ("optimizer states", "优化器状态")}


def split(value: str) -> tuple[int, int, int]:
    """The (weights, gradients, optimizer) split of the recipe keyed ``value``.  A recipe with no published split
    (12_fp8) gives the default's: such a problem is refused by the ZeRO step and drawn again at the default
    (question_bank.template), so this split only carries the first draw through."""
    return RECIPE_SPLIT.get(value, RECIPE_SPLIT[BY_KEY["bytes_per_param"].default])


def optimizer_words(value: str, lang: str = EN) -> str:
    """``12 B fp32 optimizer states`` (the default's words) or the recipe's own (:data:`RECIPE_OPTIMIZER`)."""
    o = split(value)[2]
    own = RECIPE_OPTIMIZER.get(value)
    return pick(lang, *own) if own else pick(lang, f"{o} B fp32 optimizer states", f"{o} B fp32 优化器状态")


def recipe_bytes(value: str) -> float:
    """The bytes per parameter of the recipe keyed ``value`` (``12_fp8`` -> 12)."""
    return input_values("bytes_per_param", value)["bytes_per_param"]

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
                "主权重、一阶动量和二阶动量（ZeRO 把 fp32 主梯度和优化器状态一起切分）。"),
         "12_fp8": ("Training state per parameter as DeepSeek trained V3 in FP8 (12 B): fp32 master weights 4 B, fp32 "
                    "gradients 4 B, bf16 Adam momentum and variance 4 B; the FP8 weights are cast on the fly.",
                    "每个参数的训练状态按 DeepSeek 训练 V3 的 FP8 方案（12 B）：fp32 主权重 4 B、fp32 梯度 4 B、bf16 Adam "
                    "一阶和二阶动量 4 B；FP8 权重在计算时临时转换。"),
         "10_adam8bit": ("Training state per parameter with 8-bit Adam (10 B): bf16 weights 2 B and gradients 2 B, fp32 "
                         "master weights 4 B, 8-bit momentum and variance 2 B.",
                         "每个参数的训练状态按 8 位 Adam（10 B）：bf16 权重 2 B 和梯度 2 B，fp32 主权重 4 B，8 位一阶和二阶"
                         "动量 2 B。"),
         "12_one_state": ("Training state per parameter with one fp32 optimizer state, as SGD with momentum, Lion or "
                          "Muon keep (12 B): bf16 weights 2 B and gradients 2 B, fp32 master weights 4 B, fp32 momentum "
                          "4 B.",
                          "每个参数的训练状态按单个 fp32 优化器状态（带动量的 SGD、Lion、Muon，12 B）：bf16 权重 2 B 和梯度 "
                          "2 B，fp32 主权重 4 B，fp32 动量 4 B。")
}),
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
    Choosable(
        "sender_copies", "weight-sync copies the trainer sends", "权重同步时训练端发出的份数", ("sender_copies",),
        {"replicas": ("The trainer GPUs write every rollout replica point to point: they push as many full copies as "
                      "there are replicas (Perplexity's RDMA WRITE transfer).",
                      "训练端 GPU 点对点写入每个 rollout 副本：推出的完整权重份数等于副本数（Perplexity 的 RDMA WRITE 传输）。"),
         "1": ("The weights go by a pipelined broadcast or relay tree: each byte leaves the trainer once and the "
               "replicas forward it (Kimi's checkpoint-engine).",
               "权重通过流水线广播或中继树发送：每个字节只离开训练端一次，由副本之间转发（Kimi 的 checkpoint-engine）。")}),
    Choosable(
        "count_local", "MoE all-to-all copies counted", "MoE All-to-All 计入的副本", ("count_local",),
        {"true": ("Every routed copy is counted, also those whose expert sits on the sending GPU (DeepEP's logical "
                  "bandwidth).",
                  "计入每个路由副本，包括专家就在发送卡上的副本（DeepEP 的逻辑带宽）。"),
         "false": ("Only the copies that leave the GPU are counted: × (EP−1)/EP with the experts spread evenly "
                   "(GShard-style volume).",
                   "只计离开本卡的副本：专家均匀分布时乘以 (EP−1)/EP（GShard 式通信量）。")}),
    Choosable(
        "latency_steps", "latency terms of a TP decode all-reduce", "TP decode 中 AllReduce 的延迟项", ("latency_steps",),
        {"ring": ("Each all-reduce is a ring: 2(N_tp−1) latency steps (the alpha-beta ring model).",
                  "每次 AllReduce 按环形算：2(N_tp−1) 个延迟步（alpha-beta 环形模型）。"),
         "one_shot": ("Each all-reduce is one-shot (TensorRT-LLM's custom all-reduce, NCCL NVLS): 2 latency steps "
                      "whatever N_tp.",
                      "每次 AllReduce 按 one-shot 算（TensorRT-LLM 自定义 AllReduce、NCCL NVLS）：2 个延迟步，与 N_tp 无关。")}),
    Choosable(
        "bytes_per_token", "stored bytes per training token", "训练数据每个 token 的存储字节数", ("token_bytes",),
        {"2": ("Tokens are stored pre-tokenised as uint16 ids: 2 B per token.", "token 以预分词的 uint16 id 存储：每 token 2 B。"),
         "4": ("Tokens are stored as uint32 ids: 4 B per token (needed above a 65,536-token vocabulary).",
               "token 以 uint32 id 存储：每 token 4 B（词表超过 65,536 时必须如此）。")}),
    Choosable(
        "merge", "patches merged per side into a vision token", "每个视觉 token 每边合并的 patch 数", ("vision_merge",),
        {"1": ("One vision token per patch (plain ViT, LLaVA 1).", "每个 patch 一个视觉 token（普通 ViT、LLaVA 1）。"),
         "2": ("2 × 2 neighbouring patches merge into one vision token (Qwen2-VL, Qwen2.5-VL).",
               "相邻 2 × 2 个 patch 合并成一个视觉 token（Qwen2-VL、Qwen2.5-VL）。")}),
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
            text = re.sub(pattern, shown.format(number_text(key, value)), text)
    return text


def number_text(key: str, value: str) -> str:
    """The number ``key=value`` counts with, as a text writes it: ``12`` for ``bytes_per_param=12_fp8`` (a keyed
    recipe's number), the value itself otherwise."""
    from .formulas import conventions

    row = next((r for r in conventions.rows(BY_KEY[key].groups[0]) if r.key == value), None)
    return value if row is None or row.value_from or row.key == f"{row.value:g}" else f"{row.value:g}"


NO_SPLIT = "no_split"  # why a ZeRO stage keeps 16 B per parameter under a recipe with no published split
# Why a problem keeps a convention's value whatever the learner chose, by the condition of the conventions table
# that refuses the choice (engine.formulas.conventions.WHEN); "" is a value the problem itself gives.
KEPT_WHY = {
    "no_mfu": ("MFU counts 6Φ per token by definition (8ΦD ÷ HFU = 6ΦD ÷ MFU: the same time).",
               "MFU 按定义计 6Φ（8ΦD ÷ HFU = 6ΦD ÷ MFU：时间相同）。"),
    "large_n": ("the ring is small, so dropping (N−1)/N would be a mistake here.", "环很小，这里省略 (N−1)/N 就是错误。"),
    "torus": ("the link is not a TPU ICI ring or torus link.", "这条链路不是 TPU ICI 的环或 torus 链路。"),
    # (the texts write "DeepSeek ... V3": a problem names no catalogue model it does not draw, question_bank.realism)
    NO_SPLIT: ("DeepSeek's V3 report publishes its FP8 recipe's 12 B per parameter, not how a ZeRO stage splits them "
                    "(no bf16 copy of the weights is kept).",
                    "DeepSeek 的 V3 报告只公布了 FP8 方案每参数 12 B，没有公布 ZeRO 各阶段如何切分（它不保留 bf16 权重副本）。"),
    "ep_given": ("the problem gives no expert-parallel degree, so every routed copy is counted.",
                 "题目没有给出专家并行度，所以计入每个路由副本。"),
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
                f"无论选择哪种约定，本题的{' ' if c.label_zh[:1].isascii() else ''}{c.label_zh} 都取 {value}：{reason}")


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

    return {r.input: r.value for g in BY_KEY[key].groups for r in conventions.rows(g) if r.key == value
            and not r.value_from}  # a value that is another input's (sender_copies = replicas) is that input's


def takes(key: str, formula: Any) -> tuple[str, ...]:
    """The inputs of ``formula`` that convention ``key`` sets: its inputs bound to the key's groups (an input of
    the same name declared without the convention, a weights_bytes' bytes_per_param, is not it).  An input the
    problem gives (``latency_steps`` a template states) keeps the problem's value."""
    return tuple(i.name for i in formula.inputs if i.convention in BY_KEY[key].groups)


def condition(key: str, value: str) -> str:
    """The condition (engine.formulas.conventions.WHEN) under which ``key=value`` is allowed ("" for always;
    :data:`NO_SPLIT` for a value some of the key's groups lack: DeepSeek-V3's FP8 recipe has no ZeRO split)."""
    from .formulas import conventions

    when = next((r.when for g in BY_KEY[key].groups for r in conventions.rows(g) if r.key == value and r.when), "")
    if when:
        return when
    return NO_SPLIT if any(all(r.key != value for r in conventions.rows(g)) for g in BY_KEY[key].groups) else ""


def applies(key: str, value: str, inputs: Mapping[str, Any], worlds: tuple[Any, ...] = (), formula: Any = None) -> bool:
    """Whether the spec allows ``key=value`` for a step whose formula reads ``inputs`` in a problem of ``worlds``:
    the condition of its row of the conventions table (a large ring, a torus link, no MFU on top), and, given the
    ``formula``, a value for every input of it the key sets (no ZeRO ``recipe`` row for DeepSeek-V3's FP8 recipe)."""
    from .formulas import conventions

    if formula is not None and any(n not in input_values(key, value) for n in takes(key, formula)):
        return False
    return all(conventions.applies(r, inputs, worlds) for g in BY_KEY[key].groups for r in conventions.rows(g)
               if r.key == value)
