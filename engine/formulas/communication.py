"""Collective communication: the bytes and alpha-beta times of ring collectives, point-to-point sends,
tensor-parallel AllReduce per layer, ZeRO-3 traffic, nccl-tests bandwidths and DDP overlap.

The seeds' module 2 (C§2) and what the bank added beside it: every formula counts the bytes ONE GPU
sends, which is what its link time is made of.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    ALGBW,
    ALPHA,
    BACKWARD_TIME,
    BETA,
    BPE,
    BUCKETS,
    BYTES_PER_VALUE,
    COLLECTIVE_SIZE,
    COLLECTIVE_TIME,
    COMM_TIME,
    HIDDEN,
    LINK_BW_ONE_WAY,
    MESSAGE_BYTES,
    MICRO_BATCH,
    N_RANKS,
    N_TP,
    PHI,
    RING_CONVENTION,
    RING_DIRECTIONS,
    SEQ_LEN,
    TREE_DEPTH,
)
from .registry import register


def _comm(name: str, expr: str, unit: str, meaning: str, inputs, miscon=(), **teaching) -> Formula:
    return Formula(name, inputs, expr, unit, meaning, "C§2", tuple(miscon), **teaching)


ONE_PASS_MISCON = (
    Misconception("allreduce_factor", "used the AllReduce factor 2 for a one-pass collective", "2*(n-1)/n*m",
                  "对只走一轮的集合通信用了 AllReduce 的因子 2"),
    Misconception("no_ring_factor", "forgot the (n-1)/n factor", "m", "漏了 (n-1)/n 因子"),
)


register(
    _comm("allreduce_bytes", "2*((n-1)/n)^ring_factor*m", "bytes", "bytes each GPU sends in a ring AllReduce",
          (MESSAGE_BYTES, N_RANKS, RING_CONVENTION),
          (Misconception("no_factor_2", "dropped the factor 2: a ring AllReduce is ReduceScatter + AllGather",
                         "(n-1)/n*m", "漏了因子 2：Ring AllReduce = ReduceScatter + AllGather"),
           Misconception("no_ring_factor", "dropped the (n-1)/n factor (2M is only the large-N limit)", "2*m",
                         "漏了 (n-1)/n 因子（2M 只是 N 很大时的极限）")),
          refs="patarasuk2009",
          decomposition=("a ring AllReduce is a ReduceScatter then an AllGather; each pass sends N−1 chunks of M/N, "
                         "so each GPU sends 2 × (N−1)/N × M",),
          decomposition_zh=("Ring AllReduce = ReduceScatter + AllGather；每轮发送 N−1 个大小为 M/N 的分块，所以每张 GPU "
                            "发送 2 × (N−1)/N × M",),
          parts=(Part("factor", "2(N−1)/N", "2*(n-1)/n", "count", "the ring factor", "环形因子"),),
          via="factor*m",
          simplification=("2(N−1)/N → 2 as N grows: each GPU sends about 2M whatever the size of the ring",),
          simplification_zh=("N 增大时 2(N−1)/N → 2：无论环多大，每张 GPU 都约发送 2M",),
          takeaway="ring AllReduce traffic per GPU stays near 2M however many GPUs join: that is why data "
                   "parallelism scales, and why latency, not bandwidth, hurts small messages.",
          takeaway_zh="Ring AllReduce 每卡通信量约 2M，与 GPU 数无关：这是数据并行能扩展的原因；小消息则受延迟而非带宽限制。",
          example={"m": 1e9, "n": 8}, plain_expr="2*(n-1)/n*m",
          meaning_zh="Ring AllReduce 中每张 GPU 发送的字节数", per_device=True),
    _comm("reduce_scatter_bytes", "((n-1)/n)^ring_factor*m", "bytes", "bytes each GPU sends in a ring ReduceScatter",
          (MESSAGE_BYTES, N_RANKS, RING_CONVENTION), ONE_PASS_MISCON, plain_expr="(n-1)/n*m",
          refs="patarasuk2009",
          decomposition=("each GPU sends every chunk but its own once: N−1 chunks of M/N",),
          decomposition_zh=("每张 GPU 把除自己那块以外的分块各发一次：N−1 个大小为 M/N 的分块",),
          simplification=("(N−1)/N → 1 as N grows: one pass sends about M",),
          simplification_zh=("N 增大时 (N−1)/N → 1：一轮约发送 M",),
          takeaway="ReduceScatter is half an AllReduce: ZeRO-2/3 use it so each GPU keeps only its own shard of the "
                   "gradients.",
          takeaway_zh="ReduceScatter 是半个 AllReduce：ZeRO-2/3 用它让每张 GPU 只保留自己那份梯度。",
          example={"m": 1e9, "n": 8},
          meaning_zh="Ring ReduceScatter 中每张 GPU 发送的字节数", per_device=True),
    _comm("allgather_bytes", "((n-1)/n)^ring_factor*m", "bytes", "bytes each GPU sends in a ring AllGather",
          (MESSAGE_BYTES, N_RANKS, RING_CONVENTION), ONE_PASS_MISCON, plain_expr="(n-1)/n*m",
          refs="patarasuk2009",
          decomposition=("each GPU passes on N−1 chunks of M/N around the ring until everyone has all N",),
          decomposition_zh=("每张 GPU 沿环转发 N−1 个大小为 M/N 的分块，直到每张卡都拿齐 N 块",),
          simplification=("(N−1)/N → 1 as N grows: one pass sends about M",),
          simplification_zh=("N 增大时 (N−1)/N → 1：一轮约发送 M",),
          takeaway="AllGather is the other half of an AllReduce: ZeRO-3/FSDP run it to rebuild the full weights "
                   "before each layer.",
          takeaway_zh="AllGather 是 AllReduce 的另一半：ZeRO-3/FSDP 在每层计算前用它拼回完整权重。",
          example={"m": 1e9, "n": 8},
          meaning_zh="Ring AllGather 中每张 GPU 发送的字节数", per_device=True),
    _comm("alltoall_bytes", "(n-1)/n*m", "bytes", "bytes each GPU sends in an All-to-All",
          (MESSAGE_BYTES, N_RANKS), ONE_PASS_MISCON,
          refs="thakur2005",
          decomposition=("each GPU sends a distinct M/N piece to each of the other N−1 GPUs",),
          decomposition_zh=("每张 GPU 给其余 N−1 张 GPU 各发一块不同的 M/N",),
          simplification=("(N−1)/N → 1 as N grows: about M per GPU",),
          simplification_zh=("N 增大时 (N−1)/N → 1：每张 GPU 约发送 M",),
          takeaway="All-to-All sends as much as an AllGather but between every pair at once: in MoE expert "
                   "parallelism the slowest links set its time.",
          takeaway_zh="All-to-All 的通信量和 AllGather 一样，但所有卡两两同时通信：MoE 专家并行中最慢的链路决定它的耗时。",
          example={"m": 1e9, "n": 8},
          meaning_zh="All-to-All 中每张 GPU 发送的字节数", per_device=True),
    _comm("p2p_bytes", "m", "bytes", "bytes sent by a point-to-point Send/Recv", (MESSAGE_BYTES,),
          decomposition=("a point-to-point Send/Recv moves the message once: M bytes",),
          decomposition_zh=("点对点 Send/Recv 只把消息发送一次：M 字节",),
          takeaway="pipeline stages exchange only activations point to point: far less traffic than a data-parallel "
                   "AllReduce of the gradients.",
          takeaway_zh="流水线各阶段之间只点对点传激活：通信量远小于数据并行对梯度的 AllReduce。",
          example={"m": 1e8},
          meaning_zh="点对点 Send/Recv 发送的字节数"),
    _comm("allreduce_time", "2*(n-1)*alpha + 2*((n-1)/n)^ring_factor*m/(directions*beta)", "time",
          "ring AllReduce time in the alpha-beta model",
          (MESSAGE_BYTES, N_RANKS, ALPHA, BETA, RING_CONVENTION, RING_DIRECTIONS),
          (Misconception("no_latency", "left out the 2(N−1)α latency term", "2*(n-1)/n*m/beta", "漏了 2(N−1)α 延迟项"),
           Misconception("no_factor_2", "dropped the factor 2 (one pass instead of two)",
                         "(n-1)*alpha + (n-1)/n*m/beta", "漏了因子 2（只算了一轮，应为两轮）")),
          refs="thakur2005, patarasuk2009",
          decomposition=("α-β model: each of the 2(N−1) ring steps pays a latency α, and the 2(N−1)/N × M bytes each GPU "
                         "sends cross a link of bandwidth β",),
          decomposition_zh=("α-β 模型：环形算法的 2(N−1) 步每步付一次延迟 α，每张 GPU 发送的 2(N−1)/N × M 字节走带宽为 β 的链路",),
          parts=(Part("lat", "T_α", "2*(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "2*(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: the bandwidth term dominates and T ≈ 2M/β; small messages: the latency term "
                          "2(N−1)α dominates",),
          simplification_zh=("大消息带宽项占主导，T ≈ 2M/β；小消息延迟项 2(N−1)α 占主导",),
          takeaway="compare the two terms: large gradients are bandwidth-bound (overlap them with compute), tiny "
                   "messages are latency-bound (bucket them together).",
          takeaway_zh="比较两项：大梯度受带宽限制（与计算重叠），小消息受延迟限制（合并成桶再发）。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9}, plain_expr="2*(n-1)*alpha + 2*(n-1)/n*m/beta",
          meaning_zh="α-β 模型下 Ring AllReduce 的耗时"),
    _comm("reduce_scatter_time", "(n-1)*alpha + ((n-1)/n)^ring_factor*m/(directions*beta)", "time",
          "ring ReduceScatter time in the alpha-beta model",
          (MESSAGE_BYTES, N_RANKS, ALPHA, BETA, RING_CONVENTION, RING_DIRECTIONS),
          (Misconception("no_latency", "left out the (N−1)α latency term", "(n-1)/n*m/beta", "漏了 (N−1)α 延迟项"),),
          refs="thakur2005, patarasuk2009",
          decomposition=("α-β model: N−1 ring steps, each paying a latency α, while each GPU sends (N−1)/N × M at "
                         "bandwidth β",),
          decomposition_zh=("α-β 模型：环形算法共 N−1 步，每步付一次延迟 α；每张 GPU 以带宽 β 发送 (N−1)/N × M",),
          parts=(Part("lat", "T_α", "(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: T ≈ M/β, half an AllReduce",),
          simplification_zh=("大消息时 T ≈ M/β，是 AllReduce 的一半",),
          takeaway="a ReduceScatter costs half an AllReduce: sharded optimizers (ZeRO-2/3) use it instead.",
          takeaway_zh="ReduceScatter 的耗时是 AllReduce 的一半：切分优化器（ZeRO-2/3）用它替代 AllReduce。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9}, plain_expr="(n-1)*alpha + (n-1)/n*m/beta",
          meaning_zh="α-β 模型下 Ring ReduceScatter 的耗时"),
    _comm("allgather_time", "(n-1)*alpha + ((n-1)/n)^ring_factor*m/(directions*beta)", "time",
          "ring AllGather time in the alpha-beta model",
          (MESSAGE_BYTES, N_RANKS, ALPHA, BETA, RING_CONVENTION, RING_DIRECTIONS),
          (Misconception("no_latency", "left out the (N−1)α latency term", "(n-1)/n*m/beta", "漏了 (N−1)α 延迟项"),),
          refs="thakur2005, patarasuk2009",
          decomposition=("α-β model: N−1 ring steps, each paying a latency α, while each GPU sends (N−1)/N × M at "
                         "bandwidth β",),
          decomposition_zh=("α-β 模型：环形算法共 N−1 步，每步付一次延迟 α；每张 GPU 以带宽 β 发送 (N−1)/N × M",),
          parts=(Part("lat", "T_α", "(n-1)*alpha", "time", "latency term", "延迟项"),
                 Part("bw", "T_β", "(n-1)/n*m/beta", "time", "bandwidth term", "带宽项")),
          via="lat + bw",
          simplification=("big messages: T ≈ M/β, half an AllReduce",),
          simplification_zh=("大消息时 T ≈ M/β，是 AllReduce 的一半",),
          takeaway="FSDP hides each layer's AllGather behind the previous layer's compute: it only hurts when it "
                   "takes longer than that compute.",
          takeaway_zh="FSDP 把每层的 AllGather 藏在前一层的计算后面：只有它比计算还慢时才会拖慢训练。",
          example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9}, plain_expr="(n-1)*alpha + (n-1)/n*m/beta",
          meaning_zh="α-β 模型下 Ring AllGather 的耗时"),
    _comm("alltoall_time", "(n-1)*alpha + (n-1)/n*m/beta", "time",
          "All-to-All time in the alpha-beta model", (MESSAGE_BYTES, N_RANKS, ALPHA, BETA),
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
          (MESSAGE_BYTES, ALPHA, BETA), (Misconception("no_latency", "left out the latency α", "m/beta", "漏了延迟 α"),),
          refs="thakur2005",
          decomposition=("one message: one latency α plus M/β on the wire",),
          decomposition_zh=("一条消息：一次延迟 α，加上在链路上传输的 M/β",),
          parts=(Part("bw", "M/β", "m/beta", "time", "time on the wire", "传输时间"),),
          via="alpha + bw",
          takeaway="small activations between pipeline stages are latency-bound: α matters as much as β.",
          takeaway_zh="流水线阶段间的小激活受延迟限制：α 和 β 一样重要。",
          example={"m": 1e8, "alpha": 5e-6, "beta": 50e9},
          meaning_zh="α-β 模型下点对点 Send/Recv 的耗时"),
    Formula("tp_allreduce_bytes_layer", (SEQ_LEN, MICRO_BATCH, HIDDEN, BPE, N_TP),
            "2*2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem", "bytes",
            "bytes each GPU sends per layer in the forward pass with Megatron tensor parallelism: two ring "
            "AllReduces (after attention and after the MLP) of the s·b·h activation", "C§2",
            (Misconception("one_allreduce", "counted one AllReduce per layer (or one ring pass); attention and MLP "
                           "each end in an AllReduce of 2(N_tp−1)/N_tp × M",
                           "2*(n_tp-1)/n_tp*s*b*h*bytes_per_elem",
                           "每层只算了一次 AllReduce（或只算了一轮环形通信）；注意力和 MLP 结束时各有一次 2(N_tp−1)/N_tp × M 的 AllReduce"),
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
            meaning_zh="Megatron 张量并行下每张 GPU 每层前向发送的字节数", per_device=True),
    Formula("tp_allreduce_time_layer", (SEQ_LEN, MICRO_BATCH, HIDDEN, BPE, N_TP, LINK_BW_ONE_WAY),
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
    Formula("comm_bytes_zero3_step", (PHI, BYTES_PER_VALUE, N_RANKS),
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
            decomposition_zh=("前向 AllGather 权重，反向再 AllGather 一次，最后 ReduceScatter 梯度：三轮环形通信，每轮 "
                              "(N−1)/N × bytes·Φ",),
            parts=(Part("full", "bytes·Φ", "bytes_per_param*phi", "bytes", "the full weights (or gradients)",
                        "完整权重（或梯度）"),
                   Part("one", "V_pass", "(n-1)/n*full", "bytes", "one ring pass", "一轮环形通信")),
            via="3*one",
            simplification=("(N−1)/N → 1 for large N: about 3 × bytes·Φ per step, against 2 × bytes·Φ for DDP",),
            simplification_zh=("N 很大时 (N−1)/N → 1：每步约 3 × bytes·Φ，DDP 是 2 × bytes·Φ",),
            takeaway="ZeRO-3 costs 1.5× the traffic of data parallelism (three passes instead of two): the price of "
                     "sharding the weights.",
            takeaway_zh="ZeRO-3 的通信量是数据并行的 1.5 倍（三轮而不是两轮）：这是切分权重的代价。",
            example={"phi": 7e9, "bytes_per_param": 2, "n": 8},
            meaning_zh="ZeRO-3 每步每张 GPU 发送的字节数", per_device=True),
    Formula("allreduce_busbw", (ALGBW, N_RANKS),
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
    Formula("nccl_algbw", (COLLECTIVE_SIZE, COLLECTIVE_TIME),
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
    Formula("tree_allreduce_time", (MESSAGE_BYTES, TREE_DEPTH, ALPHA, BETA),
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
    Formula("bucketed_allreduce_time", (MESSAGE_BYTES, N_RANKS, ALPHA, BETA, BUCKETS),
            "buckets*2*(n-1)*alpha + 2*(n-1)/n*m/beta", "time",
            "ring AllReduce time of a message sent as k equal buckets, each its own AllReduce: every bucket pays the "
            "2(N−1) latency steps, the bytes are the same",
            "li2020",
            (Misconception("latency_once", "charged the ring latency 2(N−1)α once for all k buckets; each bucket is "
                           "its own AllReduce and pays it", "2*(n-1)*alpha + 2*(n-1)/n*m/beta",
                           "只算了一次 2(N−1)α 延迟：每个桶都是一次独立的 AllReduce，各自付这份延迟"),
             Misconception("no_latency", "left out the latency terms", "2*(n-1)/n*m/beta", "漏了延迟项")),
            "T_comm",
            decomposition=("k buckets are k AllReduces of M/k each: each pays 2(N−1) latency steps α, and each GPU "
                           "sends 2(N−1)/N × M/k per bucket, 2(N−1)/N × M in all",),
            decomposition_zh=("k 个桶就是 k 次 AllReduce，每次 M/k：每次都付 2(N−1) 步延迟 α；每张 GPU 每个桶发送 "
                              "2(N−1)/N × M/k，合计 2(N−1)/N × M",),
            parts=(Part("lat", "T_α", "buckets*2*(n-1)*alpha", "time", "k × the latency of one AllReduce",
                        "k 次 AllReduce 的延迟"),
                   Part("bw", "T_β", "2*(n-1)/n*m/beta", "time", "bandwidth term, as for one AllReduce of M",
                        "带宽项，与一次 M 的 AllReduce 相同")),
            via="lat + bw",
            simplification=("bucketing leaves the bandwidth term alone and multiplies the latency term by k: fine while "
                            "k·2(N−1)α stays small next to 2M/β",),
            simplification_zh=("分桶不改变带宽项，只把延迟项乘以 k：只要 k·2(N−1)α 远小于 2M/β 就划算",),
            takeaway="buckets buy overlap with the backward pass at the price of k latency terms: many tiny buckets on a "
                     "large ring become latency-bound.",
            takeaway_zh="分桶用 k 份延迟换来与反向传播的重叠：大环上分太多小桶会变成受延迟限制。",
            example={"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 100e9, "buckets": 4},
            meaning_zh="把消息分成 k 个等大的桶、每桶一次 Ring AllReduce 的总耗时：每个桶都付 2(N−1) 步延迟，字节数不变"),
    Formula("ddp_exposed_comm_time", (COMM_TIME, BACKWARD_TIME, BUCKETS),
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
            takeaway_zh="重叠最多只能掩盖与反向传播等长的通信：超出的部分分再多的桶也没用，只能减少字节或换更快的链路。",
            example={"comm_time": 0.1, "backward_time": 0.2, "buckets": 4},
            meaning_zh="分桶 DDP 在反向传播结束后仍暴露的通信时间：梯度就绪后第 i 个桶即开始 AllReduce；"
                       "最后一个桶总要等反向结束"),
)
