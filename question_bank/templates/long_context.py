"""Long context (issue #26): a sliding window's KV cache (Mistral 7B), and the traffic of context parallelism:
ring attention's K/V blocks against DeepSpeed-Ulysses' all-to-all, per GPU and per layer."""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from .. import hardware, kit, models
from ..base import Ask, Spec, World, given, template
from ..hardware import DTYPE_BYTES
from .memory import nominal_phi

SWA_CONV_EN = ("Sliding-window attention: every layer attends to (and caches) at most the last W tokens. KV cache = "
               "K and V for every layer, window and sequence. GB = 10⁹ B.")
SWA_CONV_ZH = ("滑动窗口注意力：每一层最多只关注（并缓存）最近 W 个 token。KV Cache 包含每一层、窗口内每个 token、"
               "每条序列的 K 和 V。GB = 10⁹ B。")
CP_CONV_EN = ("Context parallelism over CP GPUs, each holding S/CP tokens of every sequence; bf16 activations (2 B). "
              "Count one layer's forward pass, bytes each GPU sends or receives (ring: the K and V blocks it receives; "
              "Ulysses: what it sends in the all-to-alls of Q, K, V and of the output). MB = 10⁶ B.")
CP_CONV_ZH = ("在 CP 张卡上做上下文并行，每张卡持有每条序列的 S/CP 个 token；激活为 bf16（2 B）。只算一层的前向，"
              "按每张卡发送或接收的字节数计（Ring Attention：它收到的 K、V 块；Ulysses：它在 Q、K、V 和输出的 All-to-All 中发出的数据）。"
              "MB = 10⁶ B。")

# Full-attention GQA models trained for long context (Ulysses splits the KV heads: CP divides n_kv), at the
# lengths long-context training runs use, and at the model's own context (Qwen3: 40,960)
_CP_KEYS = ("llama31_8b", "llama31_70b", "llama3_405b", "qwen3_8b", "qwen3_32b", "qwen3_235b_a22b", "mixtral_8x7b",
            "mixtral_8x22b")
_SEQS = (16384, 32768, 65536, 131072)


def _mb(v: float) -> str:
    return fmt_quantity(v, "bytes", unit="MB")


@template("inference.sliding_window_kv", topic="inference", title="KV cache with a sliding window (Mistral 7B)",
          title_zh="滑动窗口注意力的 KV Cache（Mistral 7B）", difficulty=2, target_seconds=120, source="jiang2023")
def sliding_window_kv(rng):
    m = models.get("mistral_7b")
    seq = rng.choice((8192, 12288, 16384, 20480, 24576, 32768))  # past the 4,096-token window, within the context
    batch, dtype = rng.choice((1, 2, 4, 8, 16, 24, 32, 48, 64)), rng.choice(("bf16", "fp8"))
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


def _cp_seqs(m) -> list[int]:
    return sorted({s for s in _SEQS if s <= m.max_seq} | ({m.max_seq} if m.max_seq < max(_SEQS) else set()))


def _cp_setup(rng, ulysses: bool = True) -> tuple:
    """A model, sequence length, CP and micro-batch, drawn evenly over the setups: CP 2-8 dividing the KV heads when
    Ulysses is asked about (its all-to-all splits them), CP 16 too for ring attention alone on 64K tokens and more
    (Llama 3 405B's 128K stage ran CP = 16); two sequences a micro-batch up to 32K tokens, one beyond."""
    setups = [(m, seq, cp, b) for m in map(models.get, _CP_KEYS) for seq in _cp_seqs(m) for cp in (2, 4, 8, 16)
              for b in ((1, 2) if seq <= 32768 else (1,))
              if (m.n_kv_heads % cp == 0 if ulysses else cp < 16 or seq >= 65536)]
    return rng.choice(setups)


def _cp_givens(m, seq: int, cp: int, batch: int = 1) -> tuple:
    return (given("model", "Model", "模型", m.name), given("seq", "Sequence length S", "序列长度 S", seq),
            given("batch", "Sequences per micro-batch B", "每个微批次的序列数 B", batch),
            given("cp", "Context-parallel GPUs CP", "上下文并行卡数 CP", cp),
            kit.model(m, "n_heads"),
            kit.model(m, "n_kv_heads"),
            kit.model(m, "d_head"))


def _ring_inputs(m, seq: int, cp: int, batch: int = 1) -> dict:
    return {"batch": batch, "seq": seq, "cp": cp, "n_kv_heads": m.n_kv_heads, "d_head": m.d_head, "bytes_per_elem": 2}


def _ulysses_inputs(m, seq: int, cp: int, batch: int = 1) -> dict:
    return {**_ring_inputs(m, seq, cp, batch), "n_heads": m.n_heads}


def _trained_on(seq: int, cp: int, batch: int) -> tuple[str, str]:
    """How the sequences are split, in English and Chinese."""
    if batch == 1:
        return (f"one {seq:,}-token sequence split over CP = {cp} GPUs",
                f"一条 {seq:,} token 的序列切分到 CP = {cp} 张卡上")
    return (f"micro-batches of {batch} sequences of {seq:,} tokens, each sequence split over CP = {cp} GPUs",
            f"每个微批次 {batch} 条 {seq:,} token 的序列，每条都切分到 CP = {cp} 张卡上")


@template("communication.ring_attention_kv", topic="communication", title="Ring attention: K/V bytes per GPU per layer",
          title_zh="Ring Attention：每卡每层收到的 K/V 字节数", difficulty=3, target_seconds=150, source="liu2023")
def ring_attention_kv(rng):
    m, seq, cp, b = _cp_setup(rng, ulysses=False)
    on_en, on_zh = _trained_on(seq, cp, b)
    return Spec(
        givens=_cp_givens(m, seq, cp, b),
        asks=(Ask(formula="ring_attention_kv_bytes", inputs=_ring_inputs(m, seq, cp, b), unit="MB",
                  prompt_en=f"{m.name} is trained on {on_en} "
                            "with ring attention. In one layer's forward pass, how many bytes of K and V does each GPU "
                            "receive, in MB?",
                  prompt_zh=f"用 Ring Attention 训练 {m.name}：{on_zh}。"
                            "一层的前向中，每张卡收到多少字节的 K 和 V（MB）？"),),
        conventions_en=CP_CONV_EN, conventions_zh=CP_CONV_ZH,
        world=World(model=m, seq=seq, batch=b),
    )


@template("communication.ulysses_alltoall", topic="communication",
          title="DeepSpeed-Ulysses: all-to-all bytes per GPU per layer", title_zh="DeepSpeed-Ulysses：每卡每层 All-to-All 字节数",
          difficulty=3, target_seconds=150, source="jacobs2023")
def ulysses_alltoall(rng):
    m, seq, cp, b = _cp_setup(rng)
    on_en, on_zh = _trained_on(seq, cp, b)
    return Spec(
        givens=_cp_givens(m, seq, cp, b),
        asks=(Ask(formula="ulysses_alltoall_bytes", inputs=_ulysses_inputs(m, seq, cp, b), unit="MB",
                  prompt_en=f"{m.name} is trained on {on_en} "
                            "with DeepSpeed-Ulysses (all-to-all to a head split for attention, and back). In one layer's "
                            "forward pass, how many bytes does each GPU send, in MB?",
                  prompt_zh=f"用 DeepSpeed-Ulysses 训练 {m.name}：{on_zh}"
                            "（注意力前用 All-to-All 改为按头切分，之后再换回来）。一层的前向中，每张卡发出多少字节（MB）？"),),
        conventions_en=CP_CONV_EN, conventions_zh=CP_CONV_ZH,
        world=World(model=m, seq=seq, batch=b),
    )


@template("communication.context_parallel_chain", topic="communication",
          title="Context parallelism: ring attention → Ulysses → which sends less?",
          title_zh="上下文并行：Ring Attention → Ulysses → 哪个通信更少？", difficulty=3, target_seconds=300,
          source="liu2023, jacobs2023")
def context_parallel_chain(rng):
    m, seq, cp, b = _cp_setup(rng)
    ring = formulas.get("ring_attention_kv_bytes").evaluate(**_ring_inputs(m, seq, cp, b))
    uly = formulas.get("ulysses_alltoall_bytes").evaluate(**_ulysses_inputs(m, seq, cp, b))
    while abs(ring - uly) / max(ring, uly) < 0.1:  # n_heads + n_kv = n_kv·CP: too close to call at the whiteboard
        m, seq, cp, b = _cp_setup(rng)
        ring = formulas.get("ring_attention_kv_bytes").evaluate(**_ring_inputs(m, seq, cp, b))
        uly = formulas.get("ulysses_alltoall_bytes").evaluate(**_ulysses_inputs(m, seq, cp, b))
    answer = "ring" if ring < uly else "Ulysses"
    ratio = (m.n_heads + m.n_kv_heads) / (m.n_kv_heads * cp)
    return Spec(
        scenario_en=f"Training {m.name} on {seq:,}-token sequences"
                    + (f" ({b} a micro-batch)" if b > 1 else "") + f" needs context parallelism over CP = {cp} "
                    "GPUs; compare the two standard schemes' traffic per GPU in one layer's forward pass.",
        scenario_zh=f"用 {seq:,} token 的序列" + (f"（每个微批次 {b} 条）" if b > 1 else "") + f"训练 {m.name} 需要在 "
                    f"CP = {cp} 张卡上做上下文并行；比较两种常用方案在一层前向中每张卡的通信量。",
        givens=_cp_givens(m, seq, cp, b),
        asks=(Ask(formula="ring_attention_kv_bytes", inputs=_ring_inputs(m, seq, cp, b), unit="MB",
                  prompt_en="Ring attention: how many bytes of K and V does each GPU receive, in MB?",
                  prompt_zh="Ring Attention：每张卡收到多少字节的 K 和 V（MB）？"),
              Ask(formula="ulysses_alltoall_bytes", inputs=_ulysses_inputs(m, seq, cp, b), unit="MB",
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
                  explanation_zh=(f"Ring Attention：{_mb(ring)}；Ulysses：{_mb(uly)}",
                                  f"Ulysses ÷ Ring Attention = (n_heads + n_kv) / (n_kv · CP) = ({m.n_heads} + {m.n_kv_heads}) / "
                                  f"({m.n_kv_heads} × {cp}) = {fmt_number(round(ratio, 2))}",
                                  "Ring Attention 只传 K 和 V（GQA 下很小），但要传 CP − 1 块；Ulysses 还要传 Q 和输出（全部 Query 头），"
                                  "但只传一块的 (CP − 1)/CP"),
                  takeaway="with grouped KV heads, ring attention's traffic is small per block but grows with CP, while "
                           "Ulysses' shrinks; Ulysses also caps CP at the number of KV heads, and ring overlaps its "
                           "traffic with the blockwise compute.",
                  takeaway_zh="KV 头分组时，Ring Attention 每块的通信量小但随 CP 增长，而 Ulysses 的随 CP 减少；Ulysses 的 CP "
                              "还受 KV 头数限制，Ring Attention 则能把通信与分块计算重叠。",
                  card_formulas=("ring_attention_kv_bytes", "ulysses_alltoall_bytes"))),
        conventions_en=CP_CONV_EN, conventions_zh=CP_CONV_ZH,
        world=World(model=m, seq=seq, batch=b),
    )


# --------------------------------------------------------------------------- #
# Is ring attention's K/V traffic hidden behind the blockwise attention? (Liu et al. 2023: block size ≳ F / BW)

RING_HIDE_EN = ("Ring attention, forward pass of one layer, bf16 (2 B), one sequence (batch 1). At every ring step a GPU "
                "computes its S/CP queries against one K/V block of S/CP tokens (a full block: QKᵀ and PV, "
                "4·(S/CP)²·n_heads·d_head FLOPs, no causal saving) while it sends that block on and receives the next "
                "one (one point-to-point send of 2·(S/CP)·n_kv·d_head·2 B at α + M/β). MB = 10⁶ B, GB/s = 10⁹ B/s, "
                "TFLOPS = 10¹² FLOP/s.")
RING_HIDE_ZH = ("Ring Attention，一层的前向，bf16（2 B），一条序列（batch 1）。环上的每一步中，每张卡用自己的 S/CP 个 query "
                "对一块 S/CP 个 token 的 K/V 做注意力（按完整的块计：QKᵀ 和 PV，4·(S/CP)²·n_heads·d_head FLOPs，不计因果掩码"
                "省下的部分），同时把这一块发给下一张卡并接收下一块（一次点对点发送 2·(S/CP)·n_kv·d_head·2 B，耗时 α + M/β）。"
                "MB = 10⁶ B，GB/s = 10⁹ B/s，TFLOPS = 10¹² FLOP/s。")
_RING_GPUS = ("h100_sxm", "h200", "b200")
HIDDEN_CHOICES = (Choice("hidden", ("yes", "hidden", "overlapped", "it is hidden", "compute-bound", "掩盖", "能掩盖",
                                    "被掩盖", "是"), "能被掩盖"),
                  Choice("exposed", ("no", "exposed", "not hidden", "communication-bound", "暴露", "不能掩盖",
                                     "不能", "否"), "不能被掩盖"))


def _ring_hide_setup(rng) -> dict:
    """A model, sequence and ring whose verdict is clear (compute and send times at least 25 % apart); hidden
    or exposed half the time each (most real setups hide it: the exposed ones are long rings of short blocks
    over the network)."""
    want_hidden = rng.random() < 0.5
    while True:
        m = models.get(rng.choice(_CP_KEYS))
        gpu = hardware.draw(rng, [hardware.get(k) for k in _RING_GPUS], accept=lambda g: g.key in _RING_GPUS)
        over_nic = rng.random() < 0.5
        if over_nic or not want_hidden:  # one GPU per node in the ring: every hop crosses the network (a NIC each)
            over_nic = True
            cp, beta = rng.choice((8, 16)), rng.choice((50e9, 100e9) if gpu.key == "b200" else (50e9,))
            alpha = rng.choice((5e-6, 10e-6))
        else:  # the ring stays in one NVLink node
            cp, beta, alpha = rng.choice((2, 4, 8)), hardware.nvlink_of(gpu).one_way, rng.choice((2e-6, 3e-6))
        seq = rng.choice([s for s in _SEQS if s <= m.max_seq])
        eff = rng.choice((0.4, 0.5, 0.6))
        c = seq // cp
        flops = 4 * c * c * m.n_heads * m.d_head
        t_comp = flops / (eff * gpu.peak("bf16"))
        block = 2 * c * m.n_kv_heads * m.d_head * 2
        t_send = alpha + block / beta
        per_byte_hidden = c * m.n_heads / m.n_kv_heads >= eff * gpu.peak("bf16") / beta  # the test latency aside
        if max(t_comp, t_send) / min(t_comp, t_send) >= 1.25 and (t_comp >= t_send) == want_hidden == per_byte_hidden:
            return {"m": m, "gpu": gpu, "over_nic": over_nic, "cp": cp, "beta": beta, "alpha": alpha, "seq": seq,
                    "eff": eff, "c": c, "flops": flops, "t_comp": t_comp, "block": block, "t_send": t_send}


def _us(seconds: float) -> str:
    return fmt_quantity(seconds, "time", unit="µs")


@template("communication.ring_attention_overlap", topic="communication",
          title="Ring attention: is the K/V transfer hidden behind the blockwise compute?",
          title_zh="Ring Attention：K/V 传输能否被分块计算掩盖？", difficulty=3, target_seconds=300, source="liu2023")
def ring_attention_overlap(rng):
    r = _ring_hide_setup(rng)
    m, gpu, cp, seq, c = r["m"], r["gpu"], r["cp"], r["seq"], r["c"]
    peak = gpu.peak("bf16")
    hidden = r["t_comp"] >= r["t_send"]
    where_en = (f"{cp} GPUs in different nodes, each hop over one NIC per GPU" if r["over_nic"]
                else f"{cp} GPUs of one NVLink node")
    where_zh = (f"{cp} 张卡分在不同节点，每一跳都走各卡自己的网卡" if r["over_nic"] else f"同一个 NVLink 节点内的 {cp} 张卡")
    link_en, link_zh = ("NIC per GPU, one way", "每卡网卡单向带宽") if r["over_nic"] else ("NVLink per GPU, one way",
                                                                                  "每卡 NVLink 单向带宽")
    intensity, ridge_net = c * m.n_heads / m.n_kv_heads, r["eff"] * peak / r["beta"]
    verdict_en = "hidden" if hidden else "exposed: the GPU waits on the link"
    verdict_zh = "能被掩盖" if hidden else "不能被掩盖：GPU 要等链路"
    return Spec(
        scenario_en=f"{m.name} is trained on {seq:,}-token sequences with ring attention over CP = {cp} "
                    f"{gpu.name} GPUs ({where_en}). Attention runs at {fmt_number(r['eff'] * 100)}% of the dense "
                    "bf16 peak.",
        scenario_zh=f"用 Ring Attention 训练 {m.name}，序列长 {seq:,} 个 token，上下文并行 CP = {cp}，{gpu.name}"
                    f"（{where_zh}）。注意力计算达到 bf16 稠密峰值的 {fmt_number(r['eff'] * 100)}%。",
        givens=_cp_givens(m, seq, cp) + (
            given("peak_flops", "Peak dense bf16 FLOP/s", "bf16 稠密峰值算力", peak, "flop_rate", "TFLOPS"),
            given("eff", "Attention efficiency (share of peak)", "注意力计算效率（占峰值比例）", r["eff"], "ratio", "%"),
            given("beta", link_en, link_zh, r["beta"], "bandwidth", "GB/s"),
            given("alpha", "Latency per send α", "每次发送的延迟 α", r["alpha"], "time", "µs")),
        asks=(Ask(formula="ring_attention_kv_bytes", inputs=_ring_inputs(m, seq, cp), unit="MB",
                  takeaway="every layer passes (CP − 1)/CP of the sequence's K and V through every GPU: whether that "
                           "costs time depends on how much compute each block brings (step 3).",
                  takeaway_zh="每一层都让序列 K、V 的 (CP − 1)/CP 流经每张卡：是否耗时取决于每一块带来多少计算（第 3 步）。",
                  prompt_en="In one layer's forward pass, how many bytes of K and V does each GPU receive, in MB?",
                  prompt_zh="一层的前向中，每张卡收到多少字节的 K 和 V（MB）？"),
              Ask(formula="p2p_time", inputs={"m": r["block"], "alpha": r["alpha"], "beta": r["beta"]}, unit="µs",
                  explanation=(f"one ring step moves one block: {_mb(r['block'])} = step 1 ÷ (CP − 1) = "
                               f"2 × {c:,} × {m.n_kv_heads} × {m.d_head} × 2 B",),
                  explanation_zh=(f"环上的每一步传一块：{_mb(r['block'])} = 第 1 步 ÷ (CP − 1) = "
                                  f"2 × {c:,} × {m.n_kv_heads} × {m.d_head} × 2 B",),
                  takeaway="each ring step sends one K/V block of S/CP tokens; with GQA it is n_kv/n_heads of the "
                           "queries' size, which is what makes ring attention cheap to hide.",
                  takeaway_zh="环上的每一步发送 S/CP 个 token 的一块 K/V；在 GQA 下它只有 query 大小的 n_kv/n_heads，"
                              "这正是 Ring Attention 容易被掩盖的原因。",
                  prompt_en="How long does one ring step's send of a K/V block take, in µs?",
                  prompt_zh="环上每一步发送一块 K/V 需要多长时间（µs）？"),
              Ask(choices=HIDDEN_CHOICES, answer="hidden" if hidden else "exposed",
                  prompt_en="Is that transfer hidden behind the attention compute of one block? Answer hidden or "
                            "exposed.",
                  prompt_zh="这次传输能否被一块的注意力计算掩盖？请回答「能被掩盖」或「不能被掩盖」。",
                  explanation=(f"compute per step = 4 × {c:,}² × {m.n_heads} × {m.d_head} = "
                               f"{fmt_number(r['flops'])} FLOPs ÷ ({fmt_number(r['eff'] * 100)}% × "
                               f"{fmt_number(peak / 1e12)} TFLOPS) = {_us(r['t_comp'])}",
                               f"send per step = {_us(r['t_send'])} (step 2): "
                               f"{_us(r['t_comp'])} {'≥' if hidden else '<'} {_us(r['t_send'])}, so the transfer is "
                               f"{verdict_en}",
                               f"the same test per byte, latency aside: a block does c·n_heads/n_kv = {c:,} × {m.n_heads} / "
                               f"{m.n_kv_heads} = {intensity:,.0f} FLOPs per byte sent, against "
                               f"efficiency × peak ÷ β = {fmt_number(round(ridge_net))} FLOP/B"),
                  explanation_zh=(f"每步计算 = 4 × {c:,}² × {m.n_heads} × {m.d_head} = {fmt_number(r['flops'])} FLOPs"
                                  f" ÷（{fmt_number(r['eff'] * 100)}% × {fmt_number(peak / 1e12)} TFLOPS）= "
                                  f"{_us(r['t_comp'])}",
                                  f"每步发送 = {_us(r['t_send'])}（第 2 步）：{_us(r['t_comp'])} "
                                  f"{'≥' if hidden else '<'} {_us(r['t_send'])}，所以传输{verdict_zh}",
                                  f"不计延迟、按每字节看也一样：一块的计算量为每发送一字节 c·n_heads/n_kv = {c:,} × {m.n_heads} / "
                                  f"{m.n_kv_heads} = {intensity:,.0f} FLOPs，对比 效率 × 峰值 ÷ β = "
                                  f"{fmt_number(round(ridge_net))} FLOP/B"),
                  takeaway="ring attention hides its traffic when each GPU's block is long enough: compute grows as "
                           "(S/CP)², the bytes as S/CP, so the block must exceed about F/BW tokens (less with GQA). "
                           "Spreading a short sequence over many GPUs across slow links exposes it.",
                  takeaway_zh="每张卡的块足够长时 Ring Attention 就能掩盖通信：计算量随 (S/CP)² 增长，字节数随 S/CP 增长，"
                              "所以块长要超过约 F/BW 个 token（GQA 下更少）。把较短的序列分到跨慢链路的许多卡上，"
                              "通信就会暴露。",
                  card_formulas=("ring_attention_kv_bytes", "p2p_time"))),
        conventions_en=RING_HIDE_EN, conventions_zh=RING_HIDE_ZH,
        world=World(model=m, gpu=gpu, precision="bf16", seq=seq, batch=1),
    )


# --------------------------------------------------------------------------- #
# Attention's share of the training FLOPs as the context grows (mfu), and the logits of a large vocabulary (memory)

SHARE_CONV_EN = ("Training FLOPs per token: every weight matmul forward and backward (6Φ), plus attention's QKᵀ and PV "
                 "over the whole sequence, forward and backward (no saving from the causal mask, as PaLM counts "
                 "them); d = n_heads × d_head = d_model. Softmax, norms and the like are ignored.")
SHARE_CONV_ZH = ("每 token 的训练 FLOPs：所有权重矩阵乘的前向和反向（6Φ），加上注意力的 QKᵀ 和 PV 在整条序列上的前向和反向"
                 "（不计因果掩码省下的部分，与 PaLM 的算法一致）；d = n_heads × d_head = d_model。忽略 softmax、归一化等。")
# Dense models whose attention width n_heads × d_head is d_model (so 12·L·s·d counts QKᵀ and PV)
_SHARE_KEYS = ("llama2_7b", "llama2_13b", "llama2_70b", "llama3_8b", "llama3_70b", "llama31_8b", "llama31_70b",
               "llama3_405b", "mistral_7b", "qwen3_8b")
_LONG_KEYS = ("llama31_8b", "llama31_70b", "llama3_405b")  # trained to 128k after an 8k pre-training stage


def _share_givens(m) -> tuple:
    return (given("model", "Model", "模型", m.name),
            given("phi", "Parameters Φ", "参数量 Φ", nominal_phi(m), "count", "params"),
            given("layers", "Layers L", "层数 L", m.layers), given("d_model", "Model width d", "隐藏维度 d", m.d_model))


def _share_inputs(m, seq: int) -> dict:
    return {"phi": nominal_phi(m), "layers": m.layers, "seq": seq, "d_model": m.d_model, "causal": 12}  # 12·L·s·d


@template("mfu.attention_share", topic="mfu", title="Attention's share of the training FLOPs at a context length",
          title_zh="某上下文长度下注意力占训练 FLOPs 的比例", difficulty=3, target_seconds=150,
          source="C§3.1, chowdhery2022")
def attention_share(rng):
    f = formulas.get("attention_flops_share")
    m = models.get(rng.choice(_SHARE_KEYS))
    # a share of 7 % at least: below it share ≈ share / (1 − share), and leaving attention out of the total is no slip
    seq = rng.choice([s for s in (2048, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152, 65536, 98304, 131072)
                      if s <= m.max_seq
                      and f.evaluate(**_share_inputs(m, s)) >= 0.07])
    return Spec(
        givens=_share_givens(m) + (given("seq", "Sequence length S", "序列长度 S", seq),),
        asks=(Ask(formula="attention_flops_share", inputs=_share_inputs(m, seq), unit="%",
                  prompt_en=f"{m.name} is trained on {seq:,}-token sequences. What share of its training FLOPs per "
                            "token goes to attention (QKᵀ and PV), in %?",
                  prompt_zh=f"用 {seq:,} token 的序列训练 {m.name}。每 token 的训练 FLOPs 中有多少比例花在注意力"
                            "（QKᵀ 和 PV）上（%）？"),),
        conventions_en=SHARE_CONV_EN, conventions_zh=SHARE_CONV_ZH,
        world=World(model=m, seq=seq),
    )


@template("mfu.attention_share_seq", topic="mfu", title="At what context length does attention take a given share?",
          title_zh="上下文多长时注意力占到给定比例？", difficulty=3, target_seconds=180, source="C§3.1, chowdhery2022")
def attention_share_seq(rng):
    f = formulas.get("attention_share_seq")
    while True:
        m = models.get(rng.choice(_SHARE_KEYS))
        share = rng.choice((0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8))
        seq = f.evaluate(phi=nominal_phi(m), layers=m.layers, share=share, d_model=m.d_model, causal=12)
        if seq <= m.max_seq:
            break
    return Spec(
        givens=_share_givens(m) + (given("share", "Attention's share", "注意力占比", share, "ratio", "%"),),
        asks=(Ask(formula="attention_share_seq", unit="",
                  inputs={"phi": nominal_phi(m), "layers": m.layers, "share": share, "d_model": m.d_model,
                          "causal": 12},
                  prompt_en=f"At what sequence length does attention (QKᵀ and PV) take {fmt_number(share * 100)}% "
                            f"of {m.name}'s training FLOPs per token?",
                  prompt_zh=f"序列长度为多少时，注意力（QKᵀ 和 PV）占 {m.name} 每 token 训练 FLOPs 的 "
                            f"{fmt_number(share * 100)}%？"),),
        conventions_en=SHARE_CONV_EN, conventions_zh=SHARE_CONV_ZH,
        world=World(model=m, seq=int(seq)),
    )


@template("mfu.long_context_flops_chain", topic="mfu",
          title="Long-context training FLOPs: attention's share at pre-training → at the long context → where it reaches a share",
          title_zh="长上下文训练的 FLOPs：预训练长度下注意力占比 → 长上下文时 → 何时达到给定比例", difficulty=3, target_seconds=360,
          source="C§3.1, chowdhery2022, llama3_2024")
def long_context_flops_chain(rng):
    m = models.get(rng.choice(_LONG_KEYS))
    share_at = formulas.get("attention_flops_share")  # 7 % at least (see attention_share)
    short = rng.choice([s for s in (4096, 8192) if share_at.evaluate(**_share_inputs(m, s)) >= 0.07])
    long = rng.choice((32768, 49152, 65536, 98304, 131072))
    half = formulas.get("attention_share_seq")
    share = rng.choice([p for p in (0.25, 0.4, 0.5, 0.6, 0.75) if half.evaluate(phi=nominal_phi(m), layers=m.layers, share=p,
                                                                      d_model=m.d_model, causal=12) <= m.max_seq])
    share_text = {0.25: ("a quarter", "四分之一"), 0.4: ("40 %", " 40%"), 0.5: ("half", "一半"), 0.6: ("60 %", " 60%"),
                  0.75: ("three quarters", "四分之三")}[share]
    return Spec(
        scenario_en=f"{m.name} is pre-trained on {short:,}-token sequences, then its context is extended by "
                    f"continued training on {long:,}-token sequences.",
        scenario_zh=f"{m.name} 先用 {short:,} token 的序列预训练，再用 {long:,} token 的序列继续训练以扩展上下文。",
        givens=_share_givens(m),
        asks=(Ask(formula="attention_flops_share", inputs=_share_inputs(m, short), unit="%",
                  prompt_en=f"At {short:,} tokens, what share of the training FLOPs per token goes to attention, in %?",
                  prompt_zh=f"序列长 {short:,} 时，每 token 训练 FLOPs 中注意力占多少（%）？"),
              Ask(formula="attention_flops_share", inputs=_share_inputs(m, long), unit="%",
                  prompt_en=f"And at {long:,} tokens, in %?", prompt_zh=f"序列长 {long:,} 时又占多少（%）？"),
              Ask(formula="attention_share_seq", unit="",
                  inputs={"phi": nominal_phi(m), "layers": m.layers, "share": share, "d_model": m.d_model,
                          "causal": 12},
                  prompt_en=f"At what sequence length does attention take {share_text[0]} of the training FLOPs per "
                            "token?",
                  prompt_zh=f"序列长度为多少时，注意力占每 token 训练 FLOPs 的{share_text[1]}？")),
        conventions_en=SHARE_CONV_EN, conventions_zh=SHARE_CONV_ZH,
        world=World(model=m, seq=long),
    )


LOGITS_CONV_EN = ("The output layer writes one logit per token per vocabulary entry; for a stable softmax and "
                  "cross-entropy the loss upcasts them to fp32 (4 B each), the copy counted here. GB = 10⁹ B.")
LOGITS_CONV_ZH = ("输出层为每个 token 对词表中每个条目写一个 logit；为了 softmax 和交叉熵数值稳定，计算损失时升到 fp32"
                  "（每个 4 B），本题只计这份 fp32 logits。GB = 10⁹ B。")
# Large vocabularies: Llama 3 (128,256), Qwen3 (151,936), Kimi K2 (163,840), gpt-oss (201,088), Llama 4 (202,048)
_VOCAB_KEYS = ("llama31_8b", "llama31_70b", "llama3_405b", "qwen3_8b", "qwen3_32b", "gpt_oss_20b", "gpt_oss_120b",
               "llama4_scout", "kimi_k2")


@template("memory.logits_bytes", topic="memory", title="Logits memory of a large vocabulary",
          title_zh="大词表的 logits 显存", difficulty=2, target_seconds=90, source="wijmans2024")
def logits_bytes(rng):
    m = models.get(rng.choice(_VOCAB_KEYS))
    seq = rng.choice([s for s in (4096, 8192, 16384, 32768) if s <= m.max_seq])
    batch = rng.choice((1, 2, 4, 8))
    inputs = {"batch": batch, "seq": seq, "vocab": m.vocab, "bytes_per_elem": 4}
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("vocab", "Vocabulary V", "词表大小 V", m.vocab),
                given("d_model", "Model width d", "隐藏维度 d", m.d_model),
                given("batch", "Micro-batch (sequences)", "微批次（序列数）", batch),
                given("seq", "Sequence length S", "序列长度 S", seq)),
        asks=(Ask(formula="logits_bytes", inputs=inputs, unit="GB", extras={"d_model": m.d_model},
                  prompt_en=f"Training {m.name} (vocabulary {m.vocab:,}) on micro-batches of {batch} × {seq:,} "
                            "tokens, how much memory do the fp32 logits of one micro-batch take, in GB?",
                  prompt_zh=f"训练 {m.name}（词表 {m.vocab:,}），微批次为 {batch} × {seq:,} 个 token，"
                            "一个微批次的 fp32 logits 占多少显存（GB）？"),),
        conventions_en=LOGITS_CONV_EN, conventions_zh=LOGITS_CONV_ZH,
        world=World(model=m, seq=seq, batch=batch),
    )
