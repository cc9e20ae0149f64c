"""Context-parallel templates: ring attention against DeepSpeed-Ulysses.

Context-parallel templates: ring attention's K/V blocks against DeepSpeed-Ulysses' all-to-all, per GPU and
per layer, and whether ring attention hides its transfer behind the blockwise compute.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from ... import hardware, kit, models
from ...spec import Ask, Spec, World, given
from ...template import template

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
            nvlink = hardware.nvlink_of(gpu)
            assert nvlink is not None  # the ring's GPUs are NVLink parts
            cp, beta, alpha = rng.choice((2, 4, 8)), nvlink.one_way, rng.choice((2e-6, 3e-6))
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
