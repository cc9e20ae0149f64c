"""Mixture of experts: total vs active parameters, the All-to-All bytes of expert parallelism, and the
expert capacity of a routed batch.

Memory follows the total parameters, FLOPs the active ones: the one idea every formula here teaches.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BATCH_TOKENS,
    BPE,
    CAPACITY_FACTOR,
    EXPERTS_IN_LAYER,
    GPU_STEP_TOKENS,
    HIDDEN,
    N_EXPERTS,
    N_RANKS,
    PHI_DENSE,
    PHI_EXPERT,
    TOP_K,
)
from .registry import register

register(
    Formula("moe_total_params", (PHI_DENSE, PHI_EXPERT, N_EXPERTS),
            "phi_dense + n_experts*phi_expert", "count",
            "total parameters of a mixture-of-experts model: what memory must hold (every expert is stored)",
            "shazeer2017, jiang2024",
            (Misconception("name_times_experts", "multiplied the whole model by the expert count (8x7B ≠ 56B: "
                           "attention and embeddings are shared)", "n_experts*(phi_dense + phi_expert)",
                           "把整个模型乘以专家数（8x7B ≠ 56B：注意力和词嵌入是共享的）"),
             Misconception("experts_only", "counted only the experts (left out attention, embeddings and router)",
                           "n_experts*phi_expert", "只算了专家（漏了注意力、词嵌入和路由器）")), "Φ_total",
            decomposition=("the shared part (attention, embeddings, router, norms) is stored once: Φ_dense; every one "
                           "of the E experts is its own MLP with its own weights: E × Φ_expert",),
            decomposition_zh=("共享部分（注意力、词嵌入、路由器、归一化层）只存一份：Φ_dense；E 个专家各是一个独立的 MLP，"
                              "各有各的权重：E × Φ_expert",),
            parts=(Part("experts", "E·Φ_expert", "n_experts*phi_expert", "count", "all the experts, each stored",
                        "全部专家，每个都要存"),),
            via="phi_dense + experts",
            simplification=("the experts are most of the model, but the shared part is counted once: multiplying the "
                            "whole model by E (\"8x7B = 56B\") counts attention and embeddings E times",),
            simplification_zh=("专家占了模型的大头，但共享部分只算一次：把整个模型乘以 E（“8x7B = 56B”）会把注意力和"
                               "词嵌入算 E 遍",),
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
                           "embeddings)", "top_k*phi_expert", "只算了被激活的专家（漏了共享的注意力和词嵌入）")),
            "Φ_active",
            decomposition=("every token runs through the shared part (attention, embeddings, router): Φ_dense; the "
                           "router sends it to k of the E experts, so it also multiplies through k × Φ_expert",),
            decomposition_zh=("每个 token 都要经过共享部分（注意力、词嵌入、路由器）：Φ_dense；路由器把它送到 E 个专家中的 "
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
    Formula("moe_alltoall_bytes", (GPU_STEP_TOKENS, TOP_K, HIDDEN.as_("d_model", "d"), BPE, N_RANKS),
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
                       "k 个副本分发出去，第二次把结果合并回来；路由均匀，所以其中 (N−1)/N 离开本卡", per_device=True),
    Formula("moe_expert_capacity", (BATCH_TOKENS, TOP_K, EXPERTS_IN_LAYER, CAPACITY_FACTOR),
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
