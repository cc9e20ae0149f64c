"""The recognised conventions (conventions are inputs): one row per (input, value).

Published sources disagree on a few constants (bytes per parameter of the training state, 6Φ or 8Φ per token,
the ring's (n−1)/n, ...).  Each is an input of the catalogue with a default, the seeds' value
(:mod:`engine.formulas.inputs`), and this table is the one place that says which values are in use, by whom
and what each counts.  Everything else reads it:

* an enumeration input's :class:`~engine.formulas.core.Choice` s and every convention input's default are built
  from its rows (:func:`choices`, :func:`default`): the figures are written here once;
* the grader evaluates a problem's own formula with each other row's value of the inputs that formula has
  (:func:`of_formula`: which formulas a row applies to is derived from the formula's inputs, never listed), and
  names the row an answer matches (status ``convention``, :mod:`engine.kinds`);
* the cards and Settings list the rows (``selectable`` ones may be chosen as a learner's own convention).

A row's ``group`` is the input declaration it belongs to (``Input.convention``): ``bytes_per_param`` is a
convention of the training state but a plain given of ``weights_bytes``, so the name alone does not say.
A row may apply only under a condition (``when``, see :data:`WHEN`): dropping (n−1)/n is a convention for a
large ring only, 8Φ per token only where no MFU is applied on top, both directions of a link only on a torus.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.langs import EN, ZH
from engine.records import NamedTuple

from ..messages import Twin, pick
from .core import Choice


class Convention(NamedTuple):
    """One value of a convention input, who uses it and what it counts."""

    group: str  # the convention input it is a value of (Input.convention)
    input: str  # the input's name in the formulas (what drill calc reads)
    key: str  # the value as typed (``drill calc train_static_bytes bytes_per_param=18``): a choice's key
    value: float  # the number the expression computes with
    label: str  # short: "18 B per parameter"
    label_zh: str
    counts: str  # what it counts: "bf16 weights, fp32 gradients"
    counts_zh: str
    who: str  # who uses it, in a few words: "ML Engineering (Bekman) and Megatron-LM" ("" for none)
    who_zh: str
    source: str  # engine.sources keys, comma-separated (readable with engine.sources.cite)
    default: bool = False  # the seeds' value: the input's default
    selectable: bool = True  # a learner may choose it as their own convention (False: recognised only)
    when: str = ""  # a condition of WHEN under which it is a convention (else a named mistake stays one)
    # the value is another input's (sender_copies = replicas): ``value`` is unused, alternatives() reads that input
    value_from: str = ""
    # the value taken apart, as a card's "where each factor comes from" says it under this value ("8Φ = 2Φ forward
    # + 4Φ backward + 2Φ recompute"); "" where the label and what it counts say it
    split: str = ""
    split_zh: str = ""

    def value_in(self, values: Mapping[str, Any]) -> float:
        """The number this row computes with for a problem's inputs (its own, or the input it names)."""
        return float(values[self.value_from]) if self.value_from else self.value

    def label_in(self, lang: str = EN) -> str:
        return pick(lang, self.label, self.label_zh)

    def counts_in(self, lang: str = EN) -> str:
        return pick(lang, self.counts, self.counts_zh)

    def who_in(self, lang: str = EN) -> str:
        return pick(lang, self.who, self.who_zh)

    @property
    def words(self) -> Twin:
        """What the value means, with who uses it: a choice's words (``drill calc``, the worked solution)."""
        if not self.who:
            return Twin(self.counts, self.counts_zh)
        space = " " if self.who_zh[-1].isascii() else ""  # "JAX scaling book 的算法", "ZeRO 论文的算法"
        return Twin(f"{self.counts}, as in {self.who}", f"{self.counts_zh}，{self.who_zh}{space}的算法")

    def named(self) -> Twin:
        """``18 B per parameter: fp32 gradients, as in ML Engineering (Bekman) and Megatron-LM``: the grader's words."""
        who = Twin(self.who, self.who_zh) if self.who else Twin(self.source_in(EN), self.source_in(ZH))
        space = " " if who.zh[-1:].isascii() else ""
        return Twin(f"{self.label}: {self.counts}, as in {who.en}",
                    f"{self.label_zh}：{self.counts_zh}，{who.zh}{space}的算法")

    def explained(self, lang: str = EN) -> str:
        """``8Φ = 2Φ forward + 4Φ backward + 2Φ recompute (Megatron-LM and Bekman)``: the card's factor line under
        this value (its label and what it counts where it has no split)."""
        who = self.who_in(lang) or self.source_in(lang)
        what = pick(lang, self.split, self.split_zh) or pick(lang, f"{self.label}: {self.counts}",
                                                              f"{self.label_zh}：{self.counts_zh}")
        return pick(lang, f"{what} ({who})", f"{what}（{who}）")

    def source_in(self, lang: str = EN) -> str:
        """The sources, readable (``ML Engineering (Bekman); Megatron-LM distributed optimizer``)."""
        from ..sources import cite

        return cite(self.source, lang=lang)


def _c(group: str, input: str, key: str, value: float, label: tuple[str, str], counts: tuple[str, str],
       who: tuple[str, str], source: str, **kw: Any) -> Convention:
    return Convention(group, input, key, value, *label, *counts, *who, source, **kw)


ZERO_PAPER = ("the ZeRO paper", "ZeRO 论文")
JAX_BOOK = ("the JAX scaling book", "JAX scaling book")

CONVENTIONS: tuple[Convention, ...] = (
    # ---------------------------------------------------------------- bytes of the training state per parameter
    _c("train_bytes", "bytes_per_param", "10", 10, ("10 B per parameter", "每参数 10 B"),
       ("bf16 weights + fp32 Adam m, v, gradients not kept", "bf16 权重 + fp32 Adam m、v，不保留梯度"),
       JAX_BOOK, "austin2025", selectable=False),
    _c("train_bytes", "bytes_per_param", "12", 12, ("12 B per parameter", "每参数 12 B"),
       ("bf16 weights and gradients + fp32 m, v, no fp32 master", "bf16 权重和梯度 + fp32 m、v，无 fp32 主权重"),
       ("the QLoRA paper", "QLoRA 论文"), "dettmers2023", selectable=False),
    _c("train_bytes", "bytes_per_param", "16", 16, ("16 B per parameter", "每参数 16 B"),
       ("bf16 weights and gradients + fp32 master, m, v", "bf16 权重和梯度 + fp32 主权重、m、v"),
       ZERO_PAPER, "rajbhandari2020", default=True,
       split="16Φ = 2Φ bf16 weights + 2Φ bf16 gradients + 12Φ fp32 master weights, m, v",
       split_zh="16Φ = 2Φ bf16 权重 + 2Φ bf16 梯度 + 12Φ fp32 主权重、m、v"),
    _c("train_bytes", "bytes_per_param", "18", 18, ("18 B per parameter", "每参数 18 B"),
       ("fp32 gradients", "fp32 梯度"), ("ML Engineering (Bekman) and Megatron-LM", "ML Engineering（Bekman）和 Megatron-LM"),
       "bekman_mle, megatron_distopt",
       split="18Φ = 2Φ bf16 weights + 4Φ fp32 gradients + 12Φ fp32 master weights, m, v",
       split_zh="18Φ = 2Φ bf16 权重 + 4Φ fp32 梯度 + 12Φ fp32 主权重、m、v"),
    _c("train_bytes", "bytes_per_param", "20", 20, ("20 B per parameter", "每参数 20 B"),
       ("fp32 master weights and main gradients", "fp32 主权重和主梯度"),
       ("the Ultra-Scale Playbook and Megatron-LM", "Ultra-Scale Playbook 和 Megatron-LM"),
       "ultrascale2025, megatron_distopt",
       split="20Φ = 2Φ bf16 weights + 2Φ bf16 gradients + 4Φ fp32 main gradients + 12Φ fp32 master weights, m, v",
       split_zh="20Φ = 2Φ bf16 权重 + 2Φ bf16 梯度 + 4Φ fp32 主梯度 + 12Φ fp32 主权重、m、v"),
    # part 4's recipes: their numbers collide with the rows above, so each has a key naming the recipe (a value read
    # back carries its key: engine.formulas.core.ChoiceValue)
    _c("train_bytes", "bytes_per_param", "12_fp8", 12, ("12 B per parameter (FP8 recipe)", "每参数 12 B（FP8 方案）"),
       ("DeepSeek-V3's FP8 recipe: fp32 master weights 4 + fp32 gradients 4 + bf16 Adam m, v 4; the FP8 weight casts "
        "are made on the fly", "DeepSeek-V3 的 FP8 方案：fp32 主权重 4 + fp32 梯度 4 + bf16 Adam m、v 4；FP8 权重在计算时"
        "临时转换"), ("DeepSeek-V3 (§3.3.3)", "DeepSeek-V3（§3.3.3）"), "deepseek_v3"),
    _c("train_bytes", "bytes_per_param", "10_adam8bit", 10, ("10 B per parameter (8-bit Adam)", "每参数 10 B（8 位 Adam）"),
       ("8-bit Adam: bf16 weights 2 + bf16 gradients 2 + fp32 master 4 + 8-bit m, v 2",
        "8 位 Adam：bf16 权重 2 + bf16 梯度 2 + fp32 主权重 4 + 8 位 m、v 2"),
       ("Dettmers et al. 2022 (8-bit optimizers)", "Dettmers 等 2022（8 位优化器）"), "dettmers2022"),
    _c("train_bytes", "bytes_per_param", "12_one_state", 12, ("12 B per parameter (one optimizer state)",
                                                              "每参数 12 B（单个优化器状态）"),
       ("one fp32 optimizer state (SGD momentum, Lion, Muon): bf16 weights 2 + bf16 gradients 2 + fp32 master 4 + "
        "fp32 momentum 4", "单个 fp32 优化器状态（带动量的 SGD、Lion、Muon）：bf16 权重 2 + bf16 梯度 2 + fp32 主权重 4 + "
        "fp32 动量 4"), ("SGD with momentum, Lion and Muon", "带动量的 SGD、Lion 和 Muon"), "lion2023, jordan2024"),
    # ---------------------------------------------------------------- the ZeRO stages' split of the same bytes
    _c("zero_recipe", "recipe", "16", 16, ("recipe 16 (ZeRO-1: 4 + 12/d)", "16 B 方案（ZeRO-1：4 + 12/d）"),
       ("bf16 weights and gradients + fp32 master, m, v (ZeRO paper: 4 + 12/d)",
        "bf16 权重和梯度 + fp32 主权重、m、v（ZeRO 论文：4 + 12/d）"), ("", ""), "rajbhandari2020", default=True,
       split="16Φ = 2Φ bf16 weights + 2Φ bf16 gradients + 12Φ fp32 master weights, m, v; ZeRO-1 keeps 4Φ whole "
             "and shards 12Φ, ZeRO-2 keeps 2Φ and shards 14Φ, ZeRO-3 shards all 16Φ",
       split_zh="16Φ = 2Φ bf16 权重 + 2Φ bf16 梯度 + 12Φ fp32 主权重、m、v；ZeRO-1 保留完整的 4Φ、切分 12Φ，"
                "ZeRO-2 保留 2Φ、切分 14Φ，ZeRO-3 切分全部 16Φ"),
    _c("zero_recipe", "recipe", "18", 18, ("recipe 18 (ZeRO-1: 6 + 12/d)", "18 B 方案（ZeRO-1：6 + 12/d）"),
       ("fp32 gradients (Megatron-LM: 6 + 12/d)", "fp32 梯度（Megatron-LM：6 + 12/d）"), ("", ""),
       "megatron_distopt, bekman_mle",
       split="18Φ = 2Φ bf16 weights + 4Φ fp32 gradients + 12Φ fp32 master weights, m, v; ZeRO-1 keeps 6Φ whole "
             "and shards 12Φ, ZeRO-2 keeps 2Φ and shards 16Φ, ZeRO-3 shards all 18Φ",
       split_zh="18Φ = 2Φ bf16 权重 + 4Φ fp32 梯度 + 12Φ fp32 主权重、m、v；ZeRO-1 保留完整的 6Φ、切分 12Φ，"
                "ZeRO-2 保留 2Φ、切分 16Φ，ZeRO-3 切分全部 18Φ"),
    _c("zero_recipe", "recipe", "20", 20, ("recipe 20 (ZeRO-1: 4 + 16/d)", "20 B 方案（ZeRO-1：4 + 16/d）"),
       ("fp32 master weights and main gradients (Megatron-LM: 4 + 16/d)", "fp32 主权重和主梯度（Megatron-LM：4 + 16/d）"),
       ("", ""), "megatron_distopt, ultrascale2025",
       split="20Φ = 2Φ bf16 weights + 2Φ bf16 gradients + 16Φ fp32 main gradients, master weights, m, v; ZeRO-1 "
             "keeps 4Φ whole and shards 16Φ, ZeRO-2 keeps 2Φ and shards 18Φ, ZeRO-3 shards all 20Φ",
       split_zh="20Φ = 2Φ bf16 权重 + 2Φ bf16 梯度 + 16Φ fp32 主梯度、主权重、m、v；ZeRO-1 保留完整的 4Φ、"
                "切分 16Φ，ZeRO-2 保留 2Φ、切分 18Φ，ZeRO-3 切分全部 20Φ"),
    # part 4's recipes split the same way: bf16 weights and gradients kept, the fp32 master weights with the states
    # sharded (DeepSeek-V3's FP8 recipe has no published split, so no row here: a ZeRO stage keeps 16 under it,
    # engine.convention_set.applies)
    _c("zero_recipe", "recipe", "10_adam8bit", 10, ("recipe 10, 8-bit Adam (ZeRO-1: 4 + 6/d)", "10 B 方案，8 位 Adam（ZeRO-1：4 + 6/d）"),
       ("bf16 weights and gradients + fp32 master and 8-bit m, v (4 + 6/d)", "bf16 权重和梯度 + fp32 主权重和 8 位 m、v（4 + 6/d）"),
       ("", ""), "dettmers2022",
       split="10Φ = 2Φ bf16 weights + 2Φ bf16 gradients + 6Φ fp32 master weights and 8-bit m, v; ZeRO-1 keeps 4Φ "
             "whole and shards 6Φ, ZeRO-2 keeps 2Φ and shards 8Φ, ZeRO-3 shards all 10Φ",
       split_zh="10Φ = 2Φ bf16 权重 + 2Φ bf16 梯度 + 6Φ fp32 主权重和 8 位 m、v；ZeRO-1 保留完整的 4Φ、切分 6Φ，"
                "ZeRO-2 保留 2Φ、切分 8Φ，ZeRO-3 切分全部 10Φ"),
    _c("zero_recipe", "recipe", "12_one_state", 12, ("recipe 12, one fp32 state (ZeRO-1: 4 + 8/d)",
                                                     "12 B 方案，单个 fp32 状态（ZeRO-1：4 + 8/d）"),
       ("bf16 weights and gradients + fp32 master and momentum (4 + 8/d)", "bf16 权重和梯度 + fp32 主权重和动量（4 + 8/d）"),
       ("", ""), "lion2023, jordan2024",
       split="12Φ = 2Φ bf16 weights + 2Φ bf16 gradients + 8Φ fp32 master weights and momentum; ZeRO-1 keeps 4Φ "
             "whole and shards 8Φ, ZeRO-2 keeps 2Φ and shards 10Φ, ZeRO-3 shards all 12Φ",
       split_zh="12Φ = 2Φ bf16 权重 + 2Φ bf16 梯度 + 8Φ fp32 主权重和动量；ZeRO-1 保留完整的 4Φ、切分 8Φ，"
                "ZeRO-2 保留 2Φ、切分 10Φ，ZeRO-3 切分全部 12Φ"),
    # ---------------------------------------------------------------- bytes a resumable checkpoint saves per parameter
    _c("checkpoint_bytes", "bytes_per_param", "14", 14, ("14 B per parameter", "每参数 14 B"),
       ("bf16 weights + fp32 master, m, v (gradients not saved)", "bf16 权重 + fp32 主权重、m、v（不存梯度）"),
       ("", ""), "rajbhandari2020, llama3_2024", default=True, selectable=False),
    _c("checkpoint_bytes", "bytes_per_param", "12", 12, ("12 B per parameter", "每参数 12 B"),
       ("fp32 parameters + m, v, no bf16 copy saved", "fp32 参数 + m、v，不另存 bf16 副本"),
       ("", ""), "rajbhandari2020", selectable=False),
    # ---------------------------------------------------------------- a rough share on top of the static bytes
    _c("overhead", "overhead", "0", 0.0, ("no overhead", "不加余量"),
       ("the bytes counted, nothing on top", "只算所列的字节，不另加"), ("", ""), "rajbhandari2020", default=True),
    _c("overhead", "overhead", "0.25", 0.25, ("× 1.25 overhead", "× 1.25 余量"),
       ("a rough quarter on top for activations and buffers", "为激活和缓冲区粗略多加四分之一"),
       ("ML Engineering (Bekman)", "ML Engineering（Bekman）"), "bekman_mle"),
    # ---------------------------------------------------------------- training FLOPs per parameter per token
    _c("flops_per_token", "flops_per_param_token", "6", 6, ("6Φ per token", "每 token 6Φ"),
       ("model FLOPs: 2 forward + 4 backward", "模型 FLOPs：前向 2 + 反向 4"), ("Kaplan and Chinchilla", "Kaplan 和 Chinchilla"),
       "kaplan2020, hoffmann2022", default=True, split="6Φ = 2Φ forward + 4Φ backward",
       split_zh="6Φ = 前向 2Φ + 反向 4Φ"),
    # MFU is defined with 6Φ: 8Φ with an MFU on top counts the recompute twice (a named mistake of train_time)
    _c("flops_per_token", "flops_per_param_token", "8", 8, ("8Φ per token", "每 token 8Φ"),
       ("hardware FLOPs with full recompute (forward run twice)", "完全重计算时的硬件 FLOPs（前向跑两次）"),
       ("Megatron-LM and Bekman", "Megatron-LM 和 Bekman"), "narayanan2021, bekman_mle", when="no_mfu",
       split="8Φ = 2Φ forward + 4Φ backward + 2Φ recompute", split_zh="8Φ = 前向 2Φ + 反向 4Φ + 重算 2Φ"),
    # ---------------------------------------------------------------- the ring's (n−1)/n
    _c("ring_factor", "ring_factor", "exact", 1, ("the exact (n−1)/n", "精确的 (n−1)/n"),
       ("(n−1)/n kept", "保留 (n−1)/n"), ("", ""), "patarasuk2009", default=True),
    _c("ring_factor", "ring_factor", "approx", 0, ("(n−1)/n dropped", "省略 (n−1)/n"),
       ("(n−1)/n taken as 1 (large n)", "把 (n−1)/n 取作 1（n 很大时）"), JAX_BOOK, "austin2025", when="large_n"),
    # ---------------------------------------------------------------- directions of a ring link
    _c("ring_directions", "directions", "1", 1, ("one direction", "单向"), ("one direction", "单向"), ("", ""),
       "patarasuk2009", default=True),
    _c("ring_directions", "directions", "2", 2, ("both directions of a link", "链路双向"),
       ("both ways of a TPU ICI ring / torus link at once (never NVLink's two-way 900 GB/s or a switch)",
        "TPU ICI 环或 torus 链路的两个方向同时使用（不适用于 NVLink 双向合计的 900 GB/s，也不适用于交换机）"), JAX_BOOK, "austin2025",
       when="torus"),
    # ---------------------------------------------------------------- compute-optimal tokens per parameter
    _c("tokens_per_param", "tokens_per_param", "20", 20.0, ("20 tokens per parameter", "每参数 20 个 token"),
       ("the rule of thumb", "经验值"), ("", ""), "hoffmann2022", default=True),
    _c("tokens_per_param", "tokens_per_param", "21", 21.0, ("~21 tokens per parameter", "约每参数 21 个 token"),
       ("20.0-22.4 across model sizes", "不同规模的模型在 20.0-22.4 之间"),
       ("Chinchilla's Table 3 (Hoffmann et al. 2022)", "Chinchilla 表 3（Hoffmann 等 2022）"), "hoffmann2022"),
    # ---------------------------------------------------------------- the spec's further conventions (given inputs)
    _c("first_token", "first_token_in_ttft", "true", 1, ("first token at TTFT", "首 token 在 TTFT 到达"),
       ("the first token arrives at TTFT: TTFT + (n − 1)·TPOT", "第一个 token 在 TTFT 时到达：TTFT + (n − 1)·TPOT"),
       ("", ""), "vllm_metrics", default=True),
    _c("first_token", "first_token_in_ttft", "false", 0, ("TPOT for every token", "每个 token 都算 TPOT"),
       ("TPOT counted for every output token: TTFT + n·TPOT", "每个输出 token 都算一次 TPOT：TTFT + n·TPOT"),
       ("", ""), "databricks2023, huyen2024"),
    _c("causal", "causal", "false", 12, ("12·L·s·d", "12·L·s·d"),
       ("12·L·s·d, scores and values over the whole sequence", "12·L·s·d，分数和加权求和按整条序列算"), ("", ""),
       "chowdhery2022", default=True),
    _c("causal", "causal", "true", 6, ("6·L·s·d (causal)", "6·L·s·d（因果）"),
       ("6·L·s·d, causal masking halves them", "6·L·s·d，因果掩码让它们减半"), ("", ""), "bekman_mle"),
    _c("overlap", "overlap", "false", 0, ("phases added", "两阶段相加"), ("the phases add", "两个阶段相加"), ("", ""),
       "sergeev2018", default=True),
    _c("overlap", "overlap", "true", 1, ("phases overlapped", "两阶段重叠"),
       ("the phases overlap: the slower one sets the time", "两个阶段重叠：由较慢的那个决定"), ("", ""), "austin2025"),
    _c("bisection_directions", "directions", "1", 1, ("one direction", "单向"), ("one direction", "单向"), ("", ""),
       "alfares2008", default=True),
    _c("bisection_directions", "directions", "2", 2, ("both directions", "双向"), ("both directions", "双向"), ("", ""),
       "austin2025", when="named_first"),
    # ---------------------------------------------------------------- the checkpoint interval with or without restarts
    _c("restart_in_interval", "with_restart", "daly", 1, ("√(2δ(M + R)) (Daly)", "√(2δ(M + R))（Daly）"),
       ("a failure comes every M + R of wall time, the restart included", "计入重启，每 M + R 的墙钟时间出一次故障"),
       ("Daly", "Daly"), "daly2006", default=True),
    _c("restart_in_interval", "with_restart", "young", 0, ("√(2δM) (Young)", "√(2δM)（Young）"),
       ("the restart time left out: √(2δM)", "不计重启时间：√(2δM)"), ("Young", "Young"), "young1974", selectable=False),
    # ---------------------------------------------------------------- which fit of the loss law sets the optimum
    _c("loss_fit", "fit", "hoffmann", 1, ("Hoffmann et al.'s approach-3 fit", "Hoffmann 等方法 3 的拟合"),
       ("E = 1.69, A = 406.4, B = 410.7, α = 0.34, β = 0.28", "E = 1.69，A = 406.4，B = 410.7，α = 0.34，β = 0.28"),
       ("", ""), "hoffmann2022", default=True),
    _c("loss_fit", "fit", "besiroglu", 0, ("Besiroglu et al.'s refit", "Besiroglu 等的重新拟合"),
       ("E = 1.8172, A = 482.01, B = 2085.43, α = 0.3478, β = 0.3658", "E = 1.8172，A = 482.01，B = 2085.43，α = 0.3478，β = 0.3658"),
       ("the Chinchilla replication", "Chinchilla 复现研究"), "besiroglu2024", when="named_first", selectable=False),
    # ---------------------------------------------------------------- what a SwiGLU MLP keeps for its backward
    _c("swiglu_kept", "mlp_sbf", "6", 6, ("6sbf (SiLU recomputed)", "6sbf（SiLU 重算）"),
       ("gate and up outputs and the down-projection input; the fused SwiGLU recomputes SiLU in the backward",
        "gate 与 up 的输出和 down 投影的输入；融合的 SwiGLU 在反向时重算 SiLU"), ("Megatron-LM", "Megatron-LM"),
       "korthikanti2022", default=True),
    _c("swiglu_kept", "mlp_sbf", "8", 8, ("8sbf (eager SwiGLU)", "8sbf（eager 模式的 SwiGLU）"),
       ("the SiLU output kept too (unfused)", "还保留了 SiLU 的输出（未融合）"),
       ("eager PyTorch", "eager PyTorch"), "korthikanti2022", when="named_first", selectable=False),
    # ---------------------------------------------------------------- the size of PPO's critic
    _c("critic_size", "critic_from_reward", "reward", 1, ("critic from the reward model", "评论家从奖励模型初始化"),
       ("the critic initialised from the reward model: Φ_critic = Φ_reward", "评论家从奖励模型初始化：Φ_critic = Φ_reward"),
       ("InstructGPT", "InstructGPT"), "ouyang2022", default=True),
    _c("critic_size", "critic_from_reward", "policy", 0, ("a policy-sized critic", "与策略模型同大的评论家"),
       ("the critic initialised from the policy: Φ_critic = Φ_policy", "评论家从策略模型初始化：Φ_critic = Φ_policy"),
       ("PPO set-ups whose value model starts from the policy", "价值模型从策略模型初始化的 PPO 配置"), "ouyang2022",
       when="named_first", selectable=False),
    # ---------------------------------------------------------------- what one GPU's NIC carries of a collective
    # A node's g GPUs reduce-scatter over NVLink first, so each GPU's own NIC (a rail) carries 1/g of the message;
    # reading one GPU per node puts the whole message through every NIC (the per-chip bound of a flat ring).
    _c("nic_share", "nic_share", "node", 1, ("1/g of the message per NIC", "每块网卡承载 1/g 的消息"),
       ("the node's g GPUs reduce-scatter over NVLink first, each GPU's NIC carries one 1/g shard",
        "节点内 g 张卡先经 NVLink 做 ReduceScatter，每张卡的网卡只承载 1/g 的分片"), ("", ""),
       "sergeev2018, austin2025", default=True),
    _c("nic_share", "nic_share", "gpu", 0, ("one GPU per node", "每节点一张卡"),
       ("the whole message through every GPU's NIC, as a flat ring with one GPU per node",
        "整条消息都经过每张卡的网卡，相当于每节点一张卡的扁平环"), JAX_BOOK, "austin2025", selectable=False),
    # A TP instance's KV cache is sharded over its GPUs, each with its own NIC: the shards travel in parallel
    _c("kv_links", "kv_sharded", "sharded", 1, ("KV shards over the instance's NICs", "KV 分片走实例的各块网卡"),
       ("each of the TP GPUs sends its own shard of the KV cache over its own NIC, in parallel",
        "TP 的每张卡用自己的网卡并行发送自己那一份 KV 分片"), ("", ""), "zhong2024, patel2024", default=True),
    _c("kv_links", "kv_sharded", "one_nic", 0, ("one NIC for the instance", "整个实例一块网卡"),
       ("the whole instance's KV cache through a single NIC", "整个实例的 KV Cache 只走一块网卡"), ("", ""),
       "zhong2024", selectable=False),
    # ---------------------------------------------------------------- part 4: RL weight sync, MoE all-to-all, TP decode
    _c("sender_copies", "sender_copies", "replicas", 0, ("point-to-point (copies = replicas)", "点对点（份数 = replicas）"),
       ("the trainer GPUs write every rollout replica separately", "训练端 GPU 分别写入每个 rollout 副本"),
       ("Perplexity's RDMA-WRITE transfer", "Perplexity 的 RDMA WRITE 传输"), "perplexity2025", default=True,
       value_from="replicas"),
    _c("sender_copies", "sender_copies", "1", 1, ("broadcast (one copy)", "广播（一份）"),
       ("a pipelined broadcast or relay tree: each byte leaves the trainer once, replicas forward it",
        "流水线广播或中继树：每个字节只离开训练端一次，由副本之间转发"),
       ("Kimi's checkpoint-engine", "Kimi 的 checkpoint-engine"), "kimi_checkpoint_engine"),
    _c("count_local", "count_local", "true", 1, ("every routed copy counted", "计入每个路由副本"),
       ("every routed copy, also those whose expert sits on the sending GPU", "每个路由副本都计入，包括专家就在发送卡上的"),
       ("DeepEP's logical bandwidth", "DeepEP 的逻辑带宽"), "deepep", default=True),
    _c("count_local", "count_local", "false", 0, ("only copies that leave the GPU", "只计离开本卡的副本"),
       ("× (EP−1)/EP: only the copies that leave the GPU", "× (EP−1)/EP：只计离开本卡的副本"),
       ("GShard-style volume", "GShard 式通信量"), "lepikhin2020", when="ep_given"),
    _c("latency_steps", "latency_steps", "ring", 0, ("ring: 2(n−1) latency terms", "ring：2(n−1) 个延迟项"),
       ("a ring all-reduce pays 2(n−1) step latencies", "环形 AllReduce 要付 2(n−1) 次单步延迟"),
       ("the alpha-beta ring model", "alpha-beta 环形模型"), "patarasuk2009", default=True),
    _c("latency_steps", "latency_steps", "one_shot", 1, ("one-shot: 2 latency terms", "one-shot：2 个延迟项"),
       ("a one-shot or NVLS all-reduce pays 2 latencies, whatever n", "one-shot 或 NVLS AllReduce 只付 2 次延迟，与 n 无关"),
       ("TensorRT-LLM's custom all-reduce and NCCL NVLS", "TensorRT-LLM 自定义 AllReduce 和 NCCL NVLS"),
       "trtllm_allreduce"),
    # ---------------------------------------------------------------- stored bytes per token of a training set
    _c("token_bytes", "bytes_per_token", "2", 2.0, ("2 B per token", "每 token 2 B"),
       ("pre-tokenised uint16 ids (a vocabulary up to 65,536)", "预分词的 uint16 id（词表不超过 65,536）"),
       ("", ""), "megatron_indexed", default=True),
    _c("token_bytes", "bytes_per_token", "4", 4.0, ("4 B per token", "每 token 4 B"),
       ("uint32 ids, needed above 65,536 (Llama 3's 128k vocabulary); raw text is also ~4 B per token (a rule of "
        "thumb, not verified)", "uint32 id，词表超过 65,536 时必须用（Llama 3 的 128k 词表）；原始文本也约每 token 4 B"
        "（经验值，未核实）"), ("", ""), "megatron_indexed, llama3_2024"),
    # ---------------------------------------------------------------- patches merged into one vision token
    _c("vision_merge", "merge", "1", 1.0, ("one token per patch", "每个 patch 一个 token"),
       ("one token per patch (plain ViT, LLaVA 1)", "每个 patch 一个 token（普通 ViT、LLaVA 1）"), ("", ""), "dosovitskiy2021",
       default=True),
    _c("vision_merge", "merge", "2", 2.0, ("2 × 2 patches per token", "每 2 × 2 个 patch 一个 token"),
       ("2 × 2 neighbouring patches merged into one token (Qwen2-VL, Qwen2.5-VL: a 28-px grid)",
        "相邻 2 × 2 个 patch 合并成一个 token（Qwen2-VL、Qwen2.5-VL：28 像素网格）"), ("", ""), "wang2024"),
)


_ROWS: dict[str, tuple[Convention, ...]] = {}  # rows() by group, made once: the table is a constant


def rows(group: str) -> tuple[Convention, ...]:
    """The rows of one convention input, in the table's order."""
    out = _ROWS.get(group)
    if out is None:  # a step reads its formula's groups for every convention a learner can choose
        out = tuple(c for c in CONVENTIONS if c.group == group)
        if not out:
            raise KeyError(f"no convention group {group!r}")
        _ROWS[group] = out
    return out


def default(group: str) -> Convention:
    """The row that is the input's default (the seeds' value)."""
    return next(c for c in rows(group) if c.default)


def choices(group: str) -> tuple[Choice, ...]:
    """An enumeration input's choices, built from its rows (the figures live in this table only)."""
    return tuple(Choice(c.key, c.value, c.words.en, c.words.zh) for c in rows(group))


# The conditions under which a row is a convention rather than a mistake.  Each reads the formula's inputs as the
# problem evaluates them and the facts of its world (question_bank.spec.World; an empty tuple when it has none).
Condition = Callable[[Mapping[str, Any], tuple[Any, ...]], bool]
RING_MIN_N = 8  # dropping (N−1)/N is a convention from a ring of this many ranks on ("large_n")


def _large_n(values: Mapping[str, Any], worlds: tuple[Any, ...]) -> bool:
    # a ring of RING_MIN_N or more, or a problem whose own convention already drops the factor (it says "large n")
    return float(values.get("n", 0)) >= RING_MIN_N or values.get("ring_factor") == 0


def _torus(values: Mapping[str, Any], worlds: tuple[Any, ...]) -> bool:
    # beta is one way of one link of a physical ring or torus: a TPU's ICI (its accelerator is in the "tpu" pool)
    return any("tpu" in getattr(getattr(w, "gpu", None), "pools", ()) for w in worlds)


def _no_mfu(values: Mapping[str, Any], worlds: tuple[Any, ...]) -> bool:
    return "mfu" not in values


def _named_first(values: Mapping[str, Any], worlds: tuple[Any, ...]) -> bool:
    # a reading likelier than the mistake that lands on the same number: both directions of a bisection (the JAX
    # book's definition) rather than every host's link across the cut; eager PyTorch's 8sbf rather than a GPT
    # layer's count that happens to come out near it; Besiroglu et al.'s refit, whose optimum is the 20 tokens per
    # parameter of the rule of thumb, rather than the rule applied to a fit it does not belong to
    return True


def _ep_given(values: Mapping[str, Any], worlds: tuple[Any, ...]) -> bool:
    # only the copies that leave the GPU, (EP−1)/EP: the problem must give an EP group of 2 or more
    return float(values.get("ep", 0)) >= 2


WHEN: dict[str, Condition] = {"large_n": _large_n, "torus": _torus, "no_mfu": _no_mfu, "named_first": _named_first,
                              "ep_given": _ep_given}


def of_formula(formula: Any) -> tuple[tuple[Any, tuple[Convention, ...]], ...]:
    """The formula's convention inputs with their rows: derived from its inputs (``Input.convention``)."""
    return tuple((i, rows(i.convention)) for i in formula.inputs if i.convention)


def applies(row: Convention, values: Mapping[str, Any], worlds: tuple[Any, ...] = ()) -> bool:
    """Whether ``row`` is a convention for a problem with these input values (its condition holds)."""
    return not row.when or WHEN[row.when](values, worlds)


class Alternative(NamedTuple):
    """The problem's formula evaluated with one other convention: what an answer by that book gives."""

    row: Convention
    value: float  # the answer under the row's value, everything else the problem's own
    own: Convention | None  # the problem's own row of the same input (None: a value the table does not list)
    own_value: float  # the input's own value (base units)


def alternatives(formula: Any, values: Mapping[str, Any], worlds: tuple[Any, ...] = ()) -> tuple[Alternative, ...]:
    """Every other applicable convention's answer for ``values`` (the problem's inputs; omitted ones are defaults).

    One input at a time, the others at the problem's own values (a book's answer differs from the problem's in
    one convention).  Values that cannot be evaluated (a requirement fails) are left out.
    """
    from .core import FormulaError

    full = formula.with_defaults(values)
    out = []
    for i, group in of_formula(formula):
        mine = full[i.name]
        own = next((c for c in group if c.value_in(full) == mine), None)
        for row in group:
            if row.value_in(full) == mine or not applies(row, full, worlds):
                continue
            try:
                v = formula.evaluate(**{**full, i.name: row.value_in(full)})
            except (FormulaError, ZeroDivisionError, OverflowError):
                continue
            out.append(Alternative(row, v, own, mine))
    return tuple(out)
