"""Mixture of experts at scale: experts per GPU under wide expert parallelism, the all-to-all bytes of one token
(and over InfiniBand with node-limited routing), the experts a decode step touches and the weights it reads,
the batch that makes expert GEMMs compute-bound, and the EP communication time of a decode step.

"DeepSeek-V3 decode on EP320: bytes per token per layer over IB? How many experts does a batch of 32 touch?
What batch makes expert GEMMs compute-bound?"  Per token, per MoE layer, forward, unless a formula says
otherwise; dispatch fp8 (1 B) and combine bf16 (2 B) as DeepSeek-V3 and DeepEP do.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part, Requirement
from .inputs import (
    A2A_ALPHA,
    BPE,
    BW,
    BYTES_PER_PARAM,
    COMBINE_BYTES,
    COUNT_LOCAL,
    D_MODEL,
    DISPATCH_BYTES,
    EP,
    EP_OPTIONAL,
    LINK_BW,
    MOE_LAYERS,
    N_EXPERTS,
    NODES_PER_TOKEN,
    PEAK,
    PHI_DENSE,
    PHI_EXPERT,
    REDUNDANT_EXPERTS,
    STEP_TOKENS,
    TOKENS_PER_GPU,
    TOP_K,
)
from .registry import register

# count_local is 1 (every copy) or 0 (only the (EP−1)/EP that leave the GPU)
LOCAL = "(count_local + (1 - count_local)*(ep - 1)/ep)"
NEEDS_EP = Requirement("count_local + ep - 1", "positive",
                       "count_local=false counts only the copies that leave the GPU: give ep, at least 2",
                       "count_local=false 只计离开本卡的副本：请给出 ep，至少为 2")
# The expression language cannot call another formula: moe_distinct_experts is written out where it is reused.
DISTINCT = "n_experts*(1 - (1 - top_k/n_experts)^tokens)"

register(
    Formula("experts_per_gpu", (N_EXPERTS, REDUNDANT_EXPERTS, EP), "ceil((n_experts + redundant_experts)/ep)", "count",
            "routed experts (with their redundant copies) each GPU of the expert-parallel group holds, per MoE layer "
            "(a shared expert is extra)", "deepseek_v3",
            (Misconception("no_redundant", "left out the redundant copies of hot experts", "ceil(n_experts/ep)",
                           "漏了热门专家的冗余副本"),
             Misconception("rounded_down", "rounded down: a GPU holds whole experts, and the last ones need a place",
                           "floor((n_experts + redundant_experts)/ep)", "向下取整了：每张卡放的是整个专家，多出来的也要有地方放")),
            "E_gpu",
            decomposition=("the E routed experts plus E_red redundant copies are spread over the EP GPUs, whole "
                           "experts each: ⌈(E + E_red) / EP⌉",),
            decomposition_zh=("E 个路由专家加上 E_red 个冗余副本分布到 EP 张卡上，每张卡放整个专家：⌈(E + E_red) / EP⌉",),
            parts=(Part("slots", "E + E_red", "n_experts + redundant_experts", "count", "expert copies to place",
                        "需要放置的专家副本数"),),
            via="ceil(slots/ep)",
            takeaway="each GPU holds {result} experts per layer: wide EP (DeepSeek-V3 decode on EP320: one each) "
                     "leaves HBM for the KV cache, and every token's k copies then cross the network.",
            takeaway_zh="每张卡每层放 {result} 个专家：宽专家并行（DeepSeek-V3 decode 用 EP320，每卡一个）把显存留给 "
                        "KV Cache，代价是每个 token 的 k 个副本都要走网络。",
            example={"n_experts": 256, "redundant_experts": 32, "ep": 144},
            meaning_zh="专家并行组中每张卡每个 MoE 层放的路由专家数（含冗余副本；共享专家另算）"),
    Formula("moe_a2a_bytes_per_token", (TOP_K, D_MODEL, DISPATCH_BYTES, COMBINE_BYTES, COUNT_LOCAL, EP_OPTIONAL),
            f"top_k*d_model*(dispatch_bytes + combine_bytes)*{LOCAL}", "bytes",
            "all-to-all bytes of one token per MoE layer, forward: dispatch of its k copies of the hidden vector and "
            "combine of the k expert outputs (every routed copy counted, or only those leaving the GPU)",
            "deepseek_v3, deepep",
            (Misconception("dispatch_only", "counted the dispatch only (the combine brings k outputs back)",
                           f"top_k*d_model*dispatch_bytes*{LOCAL}", "只算了分发（合并还要把 k 个输出送回来）"),
             Misconception("one_copy", "sent one copy instead of one per chosen expert (× k)",
                           f"d_model*(dispatch_bytes + combine_bytes)*{LOCAL}", "只发了一份，而不是每个被选中的专家一份（× k）"),
             Misconception("both_bf16", "sent both legs in bf16 (DeepSeek-V3 dispatches in fp8)",
                           f"top_k*d_model*2*combine_bytes*{LOCAL}", "两个方向都按 bf16 算了（DeepSeek-V3 分发用 fp8）")),
            "V_token",
            decomposition=("dispatch: k copies of the d-wide hidden vector at b_disp bytes; combine: k expert "
                           "outputs back at b_comb bytes: k × d × (b_disp + b_comb)",
                           "count_local=false keeps only the (EP−1)/EP of the copies that leave the GPU"),
            decomposition_zh=("分发：隐藏向量（d 维，每元素 b_disp 字节）发 k 份；合并：k 个专家输出以 b_comb 字节送回："
                              "k × d × (b_disp + b_comb)",
                              "count_local=false 时只保留离开本卡的 (EP−1)/EP"),
            parts=(Part("vec", "d·(b_disp + b_comb)", "d_model*(dispatch_bytes + combine_bytes)", "bytes",
                        "one copy out and its output back", "一份副本发出去、输出送回来"),),
            via=f"top_k*vec*{LOCAL}",
            takeaway="each token moves {result} per MoE layer: fp8 dispatch saves a third against bf16 both ways, and "
                     "summed over every MoE layer (58 in DeepSeek-V3) this, not the FLOPs, bounds wide-EP decode.",
            takeaway_zh="每个 token 每个 MoE 层要搬 {result}：fp8 分发比两个方向都用 bf16 省三分之一；"
                        "乘上所有 MoE 层（DeepSeek-V3 有 58 层），限制宽专家并行 decode 的是它而不是 FLOPs。",
            example={"top_k": 8, "d_model": 7168, "dispatch_bytes": 1, "combine_bytes": 2},
            requires=(NEEDS_EP,),
            meaning_zh="一个 token 在一个 MoE 层前向的 All-to-All 字节数：把隐藏向量分发 k 份，再把 k 个专家输出合并回来"
                       "（计入每个路由副本，或只计离开本卡的）", per_device=True),
    Formula("moe_node_limited_ib_bytes_per_token", (NODES_PER_TOKEN, D_MODEL, DISPATCH_BYTES, COMBINE_BYTES),
            "nodes_per_token*d_model*(dispatch_bytes + combine_bytes)", "bytes",
            "InfiniBand bytes of one token per MoE layer with node-limited routing: it crosses IB once per target "
            "node (to the same in-node index) and fans out to its experts there over NVLink", "deepseek_v3",
            (Misconception("top_k_copies", "sent top_k copies over IB instead of one per target node",
                           "top_k*d_model*(dispatch_bytes + combine_bytes)", "通过 IB 发了 top_k 份，而不是每个目标节点一份"),),
            "V_IB",
            decomposition=("one copy per target node M over IB (dispatch b_disp, combine b_comb bytes per element), "
                           "then NVLink forwards it to the node's experts: M × d × (b_disp + b_comb)",),
            decomposition_zh=("每个目标节点经 IB 只收一份（分发每元素 b_disp 字节、合并 b_comb 字节），再由 NVLink 转发给该节点"
                              "上的专家：M × d × (b_disp + b_comb)",),
            parts=(Part("vec", "d·(b_disp + b_comb)", "d_model*(dispatch_bytes + combine_bytes)", "bytes",
                        "one copy out and back", "一份副本的往返"),),
            via="nodes_per_token*vec",
            takeaway="node-limited routing sends {result} over IB instead of k copies: NVLink (~160 GB/s) is ~3.2 × IB "
                     "(50 GB/s), so a token may reach ~3.2 experts per node for the price of one IB copy.",
            takeaway_zh="节点受限路由经 IB 只发 {result}，而不是 k 份：NVLink（约 160 GB/s）约是 IB（50 GB/s）的 3.2 倍，"
                        "所以一次 IB 传输的代价可以送到每个节点约 3.2 个专家。",
            example={"nodes_per_token": 4, "d_model": 7168, "dispatch_bytes": 1, "combine_bytes": 2},
            meaning_zh="节点受限路由下一个 token 在一个 MoE 层的 InfiniBand 字节数：每个目标节点经 IB 只到一次（发到同一节点内序号），"
                       "再经 NVLink 扇出到该节点的专家"),
    Formula("moe_distinct_experts", (N_EXPERTS, TOP_K, STEP_TOKENS), DISTINCT, "count",
            "expected experts of one MoE layer that at least one of the step's tokens routes to (each token picks "
            "top_k distinct experts uniformly, tokens independent)", "austin2025",
            (Misconception("no_collisions", "took min(E, k·T): as if no two tokens ever shared an expert",
                           "min(n_experts, top_k*tokens)", "用了 min(E, k·T)：好像两个 token 从不共用专家"),),
            "E_touched",
            decomposition=("one token misses a given expert with probability 1 − k/E; T independent tokens all miss it "
                           "with (1 − k/E)^T; E × (1 − that) experts are touched",),
            decomposition_zh=("一个 token 没选中某个专家的概率是 1 − k/E；T 个独立的 token 都没选中它的概率是 (1 − k/E)^T；"
                              "被选中的专家数为 E × (1 − 这个概率)",),
            parts=(Part("miss", "(1 − k/E)^T", "(1 - top_k/n_experts)^tokens", "ratio",
                        "chance no token picks a given expert", "某个专家没有被任何 token 选中的概率"),),
            via="n_experts*(1 - miss)",
            takeaway="{tokens} tokens touch {result} experts, not k·T: collisions grow with the batch, so a decode "
                     "step reads far more expert weights than one token's k but fewer than all E.",
            takeaway_zh="{tokens} 个 token 会用到 {result} 个专家，而不是 k·T：批越大碰撞越多，所以一个 decode 步读的"
                        "专家权重远多于一个 token 的 k 个，又少于全部 E 个。",
            example={"n_experts": 256, "top_k": 8, "tokens": 32},
            meaning_zh="一步的 token 中至少有一个路由到的专家数的期望（每层；每个 token 均匀地选 top_k 个不同专家，token 之间独立）"),
    Formula("moe_decode_weight_bytes", (PHI_DENSE, PHI_EXPERT, N_EXPERTS, TOP_K, STEP_TOKENS, BYTES_PER_PARAM),
            f"bytes_per_param*(phi_dense + {DISTINCT}*phi_expert)", "bytes",
            "weight bytes one memory-bound MoE decode step reads: the shared part once, plus every expert at least one "
            "token of the step routes to (moe_distinct_experts, written out)", "austin2025, deepseek_v3",
            (Misconception("active_only", "read only the active parameters (batch-1 thinking)",
                           "bytes_per_param*(phi_dense + top_k*phi_expert)", "只读了激活参数（按 batch 1 的思路）"),
             Misconception("all_experts", "read every expert (the total parameters)",
                           "bytes_per_param*(phi_dense + n_experts*phi_expert)", "读了全部专家（总参数量）")),
            "W_step",
            decomposition=("the shared part (attention, embeddings, router) is read once: Φ_dense; each expert touched "
                           "by at least one token is read once: E_touched = E (1 − (1 − k/E)^T) (moe_distinct_experts), "
                           "× Φ_expert; all at bytes per parameter",),
            decomposition_zh=("共享部分（注意力、词嵌入、路由器）读一次：Φ_dense；至少被一个 token 用到的专家各读一次："
                              "E_touched = E (1 − (1 − k/E)^T)（moe_distinct_experts），× Φ_expert；再乘每参数字节数",),
            parts=(Part("touched", "E_touched", DISTINCT, "count", "experts the step's tokens touch (moe_distinct_experts)",
                        "这一步的 token 用到的专家数（moe_distinct_experts）"),),
            via="bytes_per_param*(phi_dense + touched*phi_expert)",
            takeaway="a step of {tokens} tokens reads {result} of weights: batching an MoE decode raises the bytes per "
                     "step with the experts touched, so its tokens per byte grow far more slowly than a dense model's.",
            takeaway_zh="{tokens} 个 token 的一步要读 {result} 权重：MoE decode 加大批次，每步读的字节也随用到的专家增加，"
                        "所以每字节产出的 token 增长得比稠密模型慢得多。",
            example={"phi_dense": 14e9, "phi_expert": 2.6e9, "n_experts": 256, "top_k": 8, "tokens": 32,
                     "bytes_per_param": 1},
            meaning_zh="一个访存受限的 MoE decode 步读取的权重字节：共享部分读一次，加上这一步至少有一个 token 路由到的每个专家"
                       "（即 moe_distinct_experts，展开写出）"),
    Formula("moe_critical_batch", (PEAK, BW, BPE, N_EXPERTS, TOP_K),
            "peak_flops/bandwidth*bytes_per_elem/2*n_experts/top_k", "count",
            "tokens per step across the EP group at which each expert's GEMM sees the dense critical batch under "
            "uniform routing: critical_batch × E/k (critical_batch written out)", "austin2025",
            (Misconception("dense", "used the dense critical batch (each expert sees only k/E of the tokens)",
                           "peak_flops/bandwidth*bytes_per_elem/2", "用了稠密模型的临界批大小（每个专家只分到 k/E 的 token）"),),
            "B_crit,MoE",
            decomposition=("a dense matmul is compute-bound from B_crit = F_peak / BW × bytes / 2 tokens "
                           "(critical_batch); each expert sees only k/E of the step's tokens, so the step needs E/k "
                           "times as many",),
            decomposition_zh=("稠密矩阵乘从 B_crit = F_peak / BW × bytes / 2 个 token 起进入算力受限（critical_batch）；"
                              "每个专家只分到这一步 k/E 的 token，所以这一步要多 E/k 倍",),
            parts=(Part("dense", "B_crit", "peak_flops/bandwidth*bytes_per_elem/2", "count",
                        "the dense critical batch (critical_batch)", "稠密模型的临界批大小（critical_batch）"),),
            via="dense*n_experts/top_k",
            takeaway="expert GEMMs turn compute-bound only at {result} tokens per step (the dense {dense} × E/k): that "
                     "is why MoE decode spreads experts wide and batches across the whole EP group.",
            takeaway_zh="专家 GEMM 要到每步 {result} 个 token 才进入算力受限（稠密的 {dense} × E/k）：所以 MoE decode "
                        "要把专家铺开、在整个 EP 组上凑批。",
            example={"peak_flops": 989e12, "bandwidth": 3.35e12, "bytes_per_elem": 2, "n_experts": 256, "top_k": 8},
            meaning_zh="路由均匀时，每个专家的 GEMM 达到稠密临界批大小所需的每步 token 数（整个 EP 组）：critical_batch × E/k"
                       "（critical_batch 展开写出）"),
    Formula("ep_decode_comm_time",
            (MOE_LAYERS, TOKENS_PER_GPU, TOP_K, D_MODEL, DISPATCH_BYTES, COMBINE_BYTES, A2A_ALPHA, LINK_BW,
             COUNT_LOCAL, EP_OPTIONAL),
            f"moe_layers*(2*alpha + tokens_per_gpu*top_k*d_model*(dispatch_bytes + combine_bytes)*{LOCAL}"
            "/link_bandwidth)", "time",
            "expert-parallel communication time of one decode step: per MoE layer a dispatch and a combine, each a "
            "fixed latency, plus this GPU's tokens' all-to-all bytes (moe_a2a_bytes_per_token, written out) over its "
            "link", "deepep, deepseek_v3",
            (Misconception("no_latency", "left out the fixed latency of each dispatch and combine (it dominates small "
                           "batches)", f"moe_layers*tokens_per_gpu*top_k*d_model*(dispatch_bytes + combine_bytes)*{LOCAL}"
                           "/link_bandwidth", "漏了每次分发和合并的固定延迟（小批次时它占主导）"),
             Misconception("one_layer", "counted one MoE layer instead of all of them",
                           f"2*alpha + tokens_per_gpu*top_k*d_model*(dispatch_bytes + combine_bytes)*{LOCAL}"
                           "/link_bandwidth", "只算了一个 MoE 层，而不是全部")),
            "T_EP",
            decomposition=("per MoE layer: a dispatch and a combine, α each, plus T_gpu tokens × k × d × (b_disp + "
                           "b_comb) bytes (moe_a2a_bytes_per_token) over the link; × L_moe layers",),
            decomposition_zh=("每个 MoE 层：一次分发和一次合并，各 α，再加上 T_gpu 个 token × k × d × (b_disp + b_comb) "
                              "字节（moe_a2a_bytes_per_token）经链路传输；× L_moe 层",),
            parts=(Part("bytes", "V_gpu", f"tokens_per_gpu*top_k*d_model*(dispatch_bytes + combine_bytes)*{LOCAL}",
                        "bytes", "this GPU's all-to-all bytes per layer", "本卡每层的 All-to-All 字节数"),
                   Part("layer", "T_layer", "2*alpha + bytes/link_bandwidth", "time", "one MoE layer's dispatch and "
                        "combine", "一个 MoE 层的分发与合并")),
            via="moe_layers*layer",
            takeaway="EP costs {result} per decode step ({layer} per layer): at a few hundred tokens per GPU the "
                     "bandwidth term rivals the latency, which is why DeepSeek overlaps it with a second micro-batch.",
            takeaway_zh="专家并行每个 decode 步要 {result}（每层 {layer}）：每卡几百个 token 时带宽项和延迟项相当，"
                        "所以 DeepSeek 用第二个微批次把它藏起来。",
            example={"moe_layers": 58, "tokens_per_gpu": 128, "top_k": 8, "d_model": 7168, "dispatch_bytes": 1,
                     "combine_bytes": 2, "alpha": 20e-6, "link_bandwidth": 50e9},
            requires=(NEEDS_EP,),
            meaning_zh="一个 decode 步的专家并行通信时间：每个 MoE 层一次分发、一次合并，各有固定延迟，加上本卡 token 的 "
                       "All-to-All 字节（moe_a2a_bytes_per_token，展开写出）经本卡链路的传输时间"),
)
