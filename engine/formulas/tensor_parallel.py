"""Tensor parallelism at decode and its limits: the all-reduce time of a TP decode step, an all-reduce with
in-switch reduction (NVLS / NVLink SHARP), and the largest TP degree whose MLP still hides its communication.

"Why is TP-8 decode of a 70B model at batch 1 latency-bound? Does NVLS help?"  Two all-reduces per layer
(after attention, after the MLP); alpha is the latency of one all-reduce step (2-10 µs on NVLink: not verified
against a primary source, measure it); beta one GPU's one-way NVLink bandwidth.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BETA,
    BPE,
    D_MODEL,
    DECODE_BATCH,
    FFN,
    LATENCY_STEPS,
    LAYERS,
    LINK_BW,
    MESSAGE_BYTES,
    N_TP,
    NVLINK_ALPHA,
    PEAK,
)
from .registry import register

# latency_steps is 0 (ring: 2(n−1) latencies) or 1 (one-shot / NVLS: 2)
STEPS = "(2*(1 - latency_steps)*(n_tp - 1) + 2*latency_steps)"
BYTES_TERM = "2*(n_tp - 1)/n_tp*batch*d_model*bytes_per_elem/beta"

register(
    Formula("tp_decode_comm_time", (LAYERS, DECODE_BATCH, D_MODEL, BPE, N_TP, NVLINK_ALPHA, BETA, LATENCY_STEPS),
            f"2*layers*({STEPS}*alpha + {BYTES_TERM})", "time",
            "tensor-parallel all-reduce time of one decode step: two all-reduces per layer (after attention, after "
            "the MLP) of the batch's activations, each a latency per step plus the ring's bytes; at batch 1 the "
            "latency dominates", "shoeybi2019, patarasuk2009",
            (Misconception("one_per_layer", "counted one all-reduce per layer (there are two: attention and MLP)",
                           f"layers*({STEPS}*alpha + {BYTES_TERM})", "每层只算了一次 AllReduce（注意力和 MLP 之后各一次）"),
             Misconception("bandwidth_only", "ignored the latency term (at batch 1 it is almost all of the time)",
                           f"2*layers*{BYTES_TERM}", "忽略了延迟项（batch 1 时它几乎就是全部时间）")),
            "T_TP",
            refs="trtllm_allreduce",
            decomposition=("per layer two all-reduces of m = B × d × bytes; each pays L_α step latencies (ring: "
                           "2(n−1); one-shot / NVLS: 2) of α (2-10 µs on NVLink, not verified: measure it), and moves "
                           "2(n−1)/n × m at β",),
            decomposition_zh=("每层两次 AllReduce，m = B × d × 字节数；每次付 L_α 次单步延迟 α（ring 为 2(n−1)，"
                              "one-shot / NVLS 为 2；NVLink 上 2-10 µs，未经核实：应实测），并以 β 传输 2(n−1)/n × m",),
            parts=(Part("latency", "L_α·α", f"{STEPS}*alpha", "time", "latency of one all-reduce",
                        "一次 AllReduce 的延迟"),
                   Part("transfer", "2(n−1)/n·m/β", BYTES_TERM, "time", "bytes of one all-reduce",
                        "一次 AllReduce 的传输时间")),
            via="2*layers*(latency + transfer)",
            takeaway="TP costs {result} per decode step, {latency} of latency against {transfer} of bytes per "
                     "all-reduce: at small batch it is latency-bound, so one-shot / NVLS all-reduces, not more "
                     "bandwidth, are what help.",
            takeaway_zh="TP 每个 decode 步要 {result}，每次 AllReduce 延迟 {latency}、传输 {transfer}：小批次时受延迟限制，"
                        "真正有用的是 one-shot / NVLS AllReduce，而不是更多带宽。",
            example={"layers": 80, "batch": 1, "d_model": 8192, "bytes_per_elem": 2, "n_tp": 8, "alpha": 5e-6,
                     "beta": 450e9},
            meaning_zh="一个 decode 步的张量并行 AllReduce 时间：每层两次 AllReduce（注意力之后、MLP 之后），每次是"
                       "每步延迟加上环形传输的字节；batch 1 时延迟占主导"),
    Formula("nvls_allreduce_time", (MESSAGE_BYTES, NVLINK_ALPHA, BETA), "alpha + m/beta", "time",
            "all-reduce time with in-switch reduction (NVLink SHARP / NVLS): each GPU sends its m once and receives "
            "the reduced m once, instead of a ring's 2(n−1)/n × m; theoretical (measured gain on H100 ~30 %, "
            "~480 GB/s, not 2×)", "austin2025",
            (Misconception("kept_ring", "kept the ring's 2(n−1)/n factor (the switch does the reduction)",
                           "alpha + 2*(n-1)/n*m/beta", "保留了环形的 2(n−1)/n 因子（归约由交换机完成）"),),
            "T_NVLS",
            refs="trtllm_allreduce",
            decomposition=("the NVSwitch adds the GPUs' contributions as they pass: each GPU sends m and receives the "
                           "sum m, m / β, where a ring moves 2(n−1)/n × m",),
            decomposition_zh=("NVSwitch 在数据经过时把各卡的贡献相加：每张卡发出 m、收回归约后的 m，即 m / β，"
                              "而环形要搬 2(n−1)/n × m",),
            simplification=("in theory about half a ring's time for large m; measured on H100 about 30 % better "
                            "(~480 GB/s bus bandwidth), not 2×",),
            simplification_zh=("理论上大消息约为环形的一半时间；H100 实测只好约 30%（总线带宽约 480 GB/s），不是 2 倍",),
            takeaway="NVLS all-reduces in {result}: the switch does the adding, so each byte crosses each link once "
                     "each way — but expect ~30 % in practice, not the theoretical 2×.",
            takeaway_zh="NVLS 的 AllReduce 只需 {result}：加法由交换机完成，每个字节在每条链路上每个方向只走一次——"
                        "但实际只能期待约 30% 的提升，而不是理论上的 2 倍。",
            example={"m": 64e6, "alpha": 5e-6, "beta": 450e9},
            meaning_zh="交换机内归约（NVLink SHARP / NVLS）时的 AllReduce 时间：每张卡发出一次 m、收回一次归约后的 m，"
                       "而不是环形的 2(n−1)/n × m；理论值（H100 实测提升约 30%，约 480 GB/s，不是 2 倍）"),
    Formula("tp_max_degree", (FFN, LINK_BW, PEAK), "ffn*link_bandwidth/peak_flops", "count",
            "largest tensor-parallel degree at which the MLP matmuls still hide their activation all-gather and "
            "reduce-scatter, whatever the batch (training / prefill; not batch-1 decode, which is latency-bound)",
            "austin2025",
            (Misconception("bidirectional", "used NVLink's two-way figure (900 GB/s on H100) for the one-way bandwidth",
                           "2*ffn*link_bandwidth/peak_flops", "用了 NVLink 的双向合计带宽（H100 的 900 GB/s）当单向带宽"),),
            "Y_max",
            decomposition=("per layer the MLP computes 4 B D F / (Y C) seconds and the all-gather + reduce-scatter of "
                           "the activations move 4 B D / W: they overlap while Y < F W / C, batch B cancels",),
            decomposition_zh=("每层 MLP 计算耗时 4 B D F / (Y C)，激活的 AllGather + ReduceScatter 传输 4 B D / W："
                              "只要 Y < F W / C 就能重叠，批大小 B 约掉了",),
            takeaway="TP stays compute-bound up to about {result} GPUs: on H100 (F / 2200) that is one NVLink node, "
                     "which is why TP stops at 8 and the rest is data, pipeline or expert parallelism.",
            takeaway_zh="TP 大约到 {result} 张卡还能保持算力受限：H100 上（F / 2200）这正好是一个 NVLink 节点，"
                        "所以 TP 到 8 为止，再往上用数据、流水线或专家并行。",
            example={"ffn": 28672, "link_bandwidth": 450e9, "peak_flops": 989e12},
            meaning_zh="MLP 矩阵乘仍能藏住激活 AllGather 和 ReduceScatter 的最大张量并行度，与批大小无关"
                       "（训练 / prefill；不适用于 batch 1 的 decode，那时受延迟限制）"),
)

