"""Long context (issue #26): a sliding window's KV cache (Mistral 7B), and the traffic of context parallelism:
ring attention's K/V blocks against DeepSpeed-Ulysses' all-to-all, per GPU and per layer."""

from __future__ import annotations

from engine import formulas
from engine.answers import Choice
from engine.units import fmt_number, fmt_quantity

from .. import kit, models
from ..base import Ask, Spec, World, given, template
from ..hardware import DTYPE_BYTES

SWA_CONV_EN = ("Sliding-window attention: every layer attends to (and caches) at most the last W tokens. KV cache = "
               "K and V for every layer, window and sequence. GB = 10⁹ B.")
SWA_CONV_ZH = ("滑动窗口注意力：每一层最多只关注（并缓存）最近 W 个 token。KV Cache 包含每一层、窗口内每个 token、"
               "每条序列的 K 和 V。GB = 10⁹ B。")
CP_CONV_EN = ("Context parallelism over CP GPUs, each holding S/CP tokens of every sequence; bf16 activations (2 B). "
              "Count one layer's forward pass, bytes each GPU sends or receives (ring: the K and V blocks it receives; "
              "Ulysses: what it sends in the all-to-alls of Q, K, V and of the output). MB = 10⁶ B.")
CP_CONV_ZH = ("在 CP 张卡上做上下文并行，每张卡持有每条序列的 S/CP 个 token；激活为 bf16（2 B）。只算一层的前向，"
              "按每张卡发送或接收的字节数计（ring：它收到的 K、V 块；Ulysses：它在 Q、K、V 和输出的 All-to-All 中发出的数据）。"
              "MB = 10⁶ B。")

# Full-attention GQA models trained for long context (8 KV heads: CP up to 8 for Ulysses)
_CP_KEYS = ("llama31_8b", "llama31_70b", "llama3_405b", "qwen3_32b")
_SEQS = (32768, 65536, 131072)


def _mb(v: float) -> str:
    return fmt_quantity(v, "bytes", unit="MB")


@template("inference.sliding_window_kv", topic="inference", title="KV cache with a sliding window (Mistral 7B)",
          title_zh="滑动窗口注意力的 KV Cache（Mistral 7B）", difficulty=2, target_seconds=120, source="jiang2023")
def sliding_window_kv(rng):
    m = models.get("mistral_7b")
    seq = rng.choice((8192, 16384, 32768))
    batch, dtype = rng.choice((1, 2, 4, 8, 16)), rng.choice(("bf16", "fp8"))
    inputs = {"batch": batch, "seq": seq, "window": m.sliding_window, "layers": m.layers, "n_kv_heads": m.n_kv_heads,
              "d_head": m.d_head, "bytes_per_elem": DTYPE_BYTES[dtype]}
    return Spec(
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "layers"),
                kit.model(m, "n_kv_heads"),
                kit.model(m, "d_head"),
                given("window", "Sliding window W", "滑动窗口 W", m.sliding_window),
                given("dtype", "KV precision", "KV 精度", dtype)),
        asks=(Ask(formula="sliding_window_kv_bytes", inputs=inputs, unit="GB",
                  prompt_en=f"{m.name} uses sliding-window attention in every layer (W = {m.sliding_window} tokens). "
                            f"It serves {batch} sequence{'s' if batch > 1 else ''} of {seq:,} tokens with "
                            f"{'an' if dtype == 'fp8' else 'a'} {dtype} KV cache. How large is the KV cache, in GB?",
                  prompt_zh=f"{m.name} 的每一层都使用滑动窗口注意力（W = {m.sliding_window} 个 token）。它同时服务 {batch} 条"
                            f"长 {seq:,} 个 token 的序列，KV Cache 为 {dtype}。KV Cache 有多大（GB）？"),),
        conventions_en=SWA_CONV_EN, conventions_zh=SWA_CONV_ZH,
        world=World(model=m, seq=seq, batch=batch, kv=dtype),
    )


def _cp_setup(rng) -> tuple:
    m = models.get(rng.choice(_CP_KEYS))
    seq = rng.choice([s for s in _SEQS if s <= m.max_seq])
    cp = rng.choice((2, 4, 8))
    return m, seq, cp


def _cp_givens(m, seq: int, cp: int) -> tuple:
    return (given("model", "Model", "模型", m.name), given("seq", "Sequence length S", "序列长度 S", seq),
            given("cp", "Context-parallel GPUs CP", "上下文并行卡数 CP", cp),
            kit.model(m, "n_heads"),
            kit.model(m, "n_kv_heads"),
            kit.model(m, "d_head"))


def _ring_inputs(m, seq: int, cp: int) -> dict:
    return {"batch": 1, "seq": seq, "cp": cp, "n_kv_heads": m.n_kv_heads, "d_head": m.d_head, "bytes_per_elem": 2}


def _ulysses_inputs(m, seq: int, cp: int) -> dict:
    return {**_ring_inputs(m, seq, cp), "n_heads": m.n_heads}


@template("communication.ring_attention_kv", topic="communication", title="Ring attention: K/V bytes per GPU per layer",
          title_zh="Ring Attention：每卡每层收到的 K/V 字节数", difficulty=3, target_seconds=150, source="liu2023")
def ring_attention_kv(rng):
    m, seq, cp = _cp_setup(rng)
    return Spec(
        givens=_cp_givens(m, seq, cp),
        asks=(Ask(formula="ring_attention_kv_bytes", inputs=_ring_inputs(m, seq, cp), unit="MB",
                  prompt_en=f"{m.name} is trained on one {seq:,}-token sequence split over CP = {cp} GPUs "
                            "with ring attention. In one layer's forward pass, how many bytes of K and V does each GPU "
                            "receive, in MB?",
                  prompt_zh=f"用 Ring Attention 训练 {m.name}：一条 {seq:,} token 的序列切分到 CP = {cp} 张卡上。"
                            "一层的前向中，每张卡收到多少字节的 K 和 V（MB）？"),),
        conventions_en=CP_CONV_EN, conventions_zh=CP_CONV_ZH,
        world=World(model=m, seq=seq, batch=1),
    )


@template("communication.ulysses_alltoall", topic="communication",
          title="DeepSpeed-Ulysses: all-to-all bytes per GPU per layer", title_zh="DeepSpeed-Ulysses：每卡每层 All-to-All 字节数",
          difficulty=3, target_seconds=150, source="jacobs2023")
def ulysses_alltoall(rng):
    m, seq, cp = _cp_setup(rng)
    return Spec(
        givens=_cp_givens(m, seq, cp),
        asks=(Ask(formula="ulysses_alltoall_bytes", inputs=_ulysses_inputs(m, seq, cp), unit="MB",
                  prompt_en=f"{m.name} is trained on one {seq:,}-token sequence split over CP = {cp} GPUs "
                            "with DeepSpeed-Ulysses (all-to-all to a head split for attention, and back). In one layer's "
                            "forward pass, how many bytes does each GPU send, in MB?",
                  prompt_zh=f"用 DeepSpeed-Ulysses 训练 {m.name}：一条 {seq:,} token 的序列切分到 CP = {cp} 张卡上"
                            "（注意力前用 All-to-All 改为按头切分，之后再换回来）。一层的前向中，每张卡发出多少字节（MB）？"),),
        conventions_en=CP_CONV_EN, conventions_zh=CP_CONV_ZH,
        world=World(model=m, seq=seq, batch=1),
    )


@template("communication.context_parallel_chain", topic="communication",
          title="Context parallelism: ring attention → Ulysses → which sends less?",
          title_zh="上下文并行：Ring Attention → Ulysses → 哪个通信更少？", difficulty=3, target_seconds=300,
          source="liu2023, jacobs2023")
def context_parallel_chain(rng):
    m, seq, cp = _cp_setup(rng)
    ring = formulas.get("ring_attention_kv_bytes").evaluate(**_ring_inputs(m, seq, cp))
    uly = formulas.get("ulysses_alltoall_bytes").evaluate(**_ulysses_inputs(m, seq, cp))
    while abs(ring - uly) / max(ring, uly) < 0.1:  # n_heads + n_kv = n_kv·CP: too close to call at the whiteboard
        m, seq, cp = _cp_setup(rng)
        ring = formulas.get("ring_attention_kv_bytes").evaluate(**_ring_inputs(m, seq, cp))
        uly = formulas.get("ulysses_alltoall_bytes").evaluate(**_ulysses_inputs(m, seq, cp))
    answer = "ring" if ring < uly else "Ulysses"
    ratio = (m.n_heads + m.n_kv_heads) / (m.n_kv_heads * cp)
    return Spec(
        scenario_en=f"Training {m.name} on {seq:,}-token sequences needs context parallelism over CP = {cp} "
                    "GPUs; compare the two standard schemes' traffic per GPU in one layer's forward pass.",
        scenario_zh=f"用 {seq:,} token 的序列训练 {m.name} 需要在 CP = {cp} 张卡上做上下文并行；比较两种常用方案"
                    "在一层前向中每张卡的通信量。",
        givens=_cp_givens(m, seq, cp),
        asks=(Ask(formula="ring_attention_kv_bytes", inputs=_ring_inputs(m, seq, cp), unit="MB",
                  prompt_en="Ring attention: how many bytes of K and V does each GPU receive, in MB?",
                  prompt_zh="Ring Attention：每张卡收到多少字节的 K 和 V（MB）？"),
              Ask(formula="ulysses_alltoall_bytes", inputs=_ulysses_inputs(m, seq, cp), unit="MB",
                  prompt_en="DeepSpeed-Ulysses: how many bytes does each GPU send in the all-to-alls, in MB?",
                  prompt_zh="DeepSpeed-Ulysses：每张卡在 All-to-All 中发出多少字节（MB）？"),
              Ask(choices=(Choice("ring", ("ring attention", "Ring Attention", "环形注意力"), "Ring Attention"),
                           Choice("Ulysses", ("ulysses", "DeepSpeed-Ulysses", "all-to-all"), "Ulysses")),
                  answer=answer,
                  prompt_en="Which scheme moves fewer bytes per GPU here: ring attention or Ulysses?",
                  prompt_zh="在这里哪种方案每张卡的通信量更少：Ring Attention 还是 Ulysses？",
                  explanation=(f"ring: {_mb(ring)}; Ulysses: {_mb(uly)}",
                               f"Ulysses ÷ ring = (n_heads + n_kv) / (n_kv · CP) = ({m.n_heads} + {m.n_kv_heads}) / "
                               f"({m.n_kv_heads} × {cp}) = {fmt_number(round(ratio, 2))}",
                               "ring moves only K and V (small with GQA) but CP − 1 blocks of them; Ulysses also moves "
                               "Q and the output (all query heads), but only (CP − 1)/CP of one block"),
                  explanation_zh=(f"ring：{_mb(ring)}；Ulysses：{_mb(uly)}",
                                  f"Ulysses ÷ ring = (n_heads + n_kv) / (n_kv · CP) = ({m.n_heads} + {m.n_kv_heads}) / "
                                  f"({m.n_kv_heads} × {cp}) = {fmt_number(round(ratio, 2))}",
                                  "ring 只传 K 和 V（GQA 下很小），但要传 CP − 1 块；Ulysses 还要传 Q 和输出（全部 Query 头），"
                                  "但只传一块的 (CP − 1)/CP"),
                  takeaway="with grouped KV heads, ring attention's traffic is small per block but grows with CP, while "
                           "Ulysses' shrinks; Ulysses also caps CP at the number of KV heads, and ring overlaps its "
                           "traffic with the blockwise compute.",
                  takeaway_zh="KV 头分组时，Ring Attention 每块的通信量小但随 CP 增长，而 Ulysses 的随 CP 减少；Ulysses 的 CP "
                              "还受 KV 头数限制，ring 则能把通信与分块计算重叠。",
                  card_formulas=("ring_attention_kv_bytes", "ulysses_alltoall_bytes"))),
        conventions_en=CP_CONV_EN, conventions_zh=CP_CONV_ZH,
        world=World(model=m, seq=seq, batch=1),
    )
