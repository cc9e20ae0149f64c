"""Serving systems: PagedAttention's blocks and waste, speculative decoding's tokens per step and
speed-up, and multi-LoRA serving's adapter bytes and step reads.

Techniques a serving stack adds on top of plain decode (vLLM, Leviathan et al. 2023), each with the
one formula an interviewer expects.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    ACCEPTANCE,
    ADAPTER_BYTES,
    BLOCK_SIZE,
    BPE,
    COST_RATIO,
    D_IN,
    D_OUT,
    DISTINCT_ADAPTERS,
    DRAFT_TOKENS,
    KV_BUDGET,
    KV_BYTES_READ,
    KV_PER_TOKEN,
    LAYERS,
    LORA_RANK,
    N_MATRICES,
    SEQ_TOKENS,
    TOKENS_PER_SEQ,
    WEIGHT_BYTES_READ,
)
from .registry import register

LINEAR_SPEC = ("assumed each draft token is accepted independently (γ·α + 1); a rejection ends the run",
               "把每个草稿 token 当成独立接受（γ·α + 1）；一旦被拒绝，后面的草稿全部作废")


register(
    Formula("paged_kv_blocks", (SEQ_TOKENS, BLOCK_SIZE),
            "ceil(seq/block_size)", "count",
            "KV blocks one sequence holds with PagedAttention (the last block is partly empty: waste = "
            "blocks × block_size − S slots)",
            "kwon2023",
            (Misconception("rounded_down_blocks", "rounded down: the last tokens need a block too",
                           "floor(seq/block_size)", "向下取整了：最后几个 token 也要占一个块"),), "blocks",
            decomposition=("vLLM hands out the KV cache in fixed blocks of b tokens, one more whenever the last fills "
                           "up; S tokens need S / b blocks' worth, rounded up to whole blocks",),
            decomposition_zh=("vLLM 按固定大小的块分配 KV Cache，每块 b 个 token，最后一块写满才再分一块；S 个 token 需要 "
                              "S / b 块的量，向上取整到整块",),
            parts=(Part("full", "full", "floor(seq/block_size)", "count", "blocks the tokens fill completely",
                        "被写满的块"),
                   Part("rest", "rest", "seq - full*block_size", "count", "tokens left over for one more block",
                        "剩下的 token，还要再占一块")),
            via="full + ceil(rest/block_size)",
            simplification=("only the last block is partly filled: it holds {rest} of its {block_size} slots, so the "
                            "waste is blocks × b − S = b − rest, less than one block",),
            simplification_zh=("只有最后一块没填满：它的 {block_size} 个槽位只用了 {rest} 个，所以浪费 = 块数 × b − S = "
                               "b − rest，不到一块",),
            takeaway="paging allocates the KV cache a block at a time as tokens arrive, so a sequence wastes less than "
                     "one block instead of a max-length reservation: more requests fit, which is where vLLM's 2–4× "
                     "throughput comes from.",
            takeaway_zh="分页随着 token 的生成一块一块地分配 KV Cache，一条序列的浪费不到一块，而不是按最大长度整段预留："
                        "能放下更多请求，vLLM 2–4 倍的吞吐提升就来自这里。",
            example={"seq": 1000, "block_size": 16},
            meaning_zh="PagedAttention 下一条序列占用的 KV 块数（最后一块没填满：浪费 = 块数 × 块大小 − S 个槽位）"),
    Formula("paged_kv_waste_tokens", (SEQ_TOKENS, BLOCK_SIZE),
            "ceil(seq/block_size)*block_size - seq", "count",
            "KV slots reserved but unused by one sequence under PagedAttention: only its last block is partly empty",
            "kwon2023",
            (Misconception("filled_part", "gave the filled part of the last block (S mod b), not its empty slots",
                           "seq - floor(seq/block_size)*block_size", "给出的是最后一块已填满的部分（S mod b），不是空着的槽位"),),
            "waste",
            decomposition=("a sequence holds whole blocks of b tokens, ceil(S / b) of them; the slots it reserves but "
                           "leaves empty are blocks × b − S, all in its last block",),
            decomposition_zh=("一条序列占用整块，每块 b 个 token，共 ceil(S / b) 块；预留了但空着的槽位 = 块数 × b − S，"
                              "全在最后一块里",),
            parts=(Part("blocks", "blocks", "ceil(seq/block_size)", "count", "whole blocks the sequence holds",
                        "这条序列占用的整块数"),
                   Part("slots", "blocks × b", "blocks*block_size", "count", "token slots reserved",
                        "预留的 token 槽位数")),
            via="slots - seq",
            simplification=("whatever S is, the waste is less than one block (< b slots), about b / 2 on average",),
            simplification_zh=("不管 S 多大，浪费都不到一块（< b 个槽位），平均约 b / 2",),
            takeaway="paging bounds the waste of a sequence by one block, against the whole unused tail of a "
                     "max-length reservation without it: that is why vLLM fits far more requests in the same memory.",
            takeaway_zh="分页把一条序列的浪费限制在一块以内，而不分页时按最大长度预留，没用到的整段尾巴都浪费了："
                        "这就是 vLLM 在同样的显存里能放下多得多的请求的原因。",
            example={"seq": 1000, "block_size": 16},
            meaning_zh="PagedAttention 下一条序列预留了但没用上的 KV 槽位：只有最后一块可能没填满"),
    Formula("paged_max_seqs", (KV_BUDGET, KV_PER_TOKEN, TOKENS_PER_SEQ, BLOCK_SIZE),
            "floor(kv_budget/(ceil(seq/block_size)*block_size*kv_bytes_per_token))", "count",
            "sequences of S tokens a KV budget holds under PagedAttention: each holds ceil(S/b) whole blocks",
            "kwon2023",
            (Misconception("no_block_rounding", "ignored that each sequence holds whole blocks",
                           "floor(kv_budget/(seq*kv_bytes_per_token))", "忽略了每条序列占用的是整块"),
             Misconception("rounded_up", "rounded up: the last sequence would not fit",
                           "ceil(kv_budget/(ceil(seq/block_size)*block_size*kv_bytes_per_token))",
                           "向上取整了：最后一条序列放不下")),
            "N_seq",
            refs="pope2022",
            decomposition=("a sequence of S tokens holds ceil(S / b) whole blocks of b tokens, each token KV/token "
                           "bytes; the KV budget ÷ the bytes of one sequence, rounded down (a partial sequence does "
                           "not fit)",),
            decomposition_zh=("一条 S 个 token 的序列占 ceil(S / b) 个整块，每块 b 个 token，每个 token KV/token 字节；"
                              "KV 预算 ÷ 一条序列的字节数，向下取整（放不下一整条就不算）",),
            parts=(Part("blocks", "blocks/seq", "ceil(seq/block_size)", "count", "whole blocks one sequence holds",
                        "一条序列占用的整块数"),
                   Part("per_seq", "bytes/seq", "blocks*block_size*kv_bytes_per_token", "bytes",
                        "KV memory one sequence holds, in whole blocks", "一条序列按整块占用的 KV 显存")),
            via="floor(kv_budget/per_seq)",
            simplification=("the blocks add less than b tokens per sequence: N_seq ≈ M_KV / (S × KV/token); without "
                            "paging a server that reserves the full context divides by the context length instead",),
            simplification_zh=("按块取整每条序列多占不到 b 个 token：N_seq ≈ M_KV / (S × KV/token)；不分页、按完整上下文"
                               "预留的服务则要除以上下文长度",),
            takeaway="with paging a sequence costs its actual length rounded up to whole blocks, not the model's maximum "
                     "context: the batch is set by the tokens in flight, and the waste stays under one block per "
                     "sequence.",
            takeaway_zh="分页后一条序列只占它的实际长度（向上取整到整块），而不是模型的最大上下文：batch 由实际在跑的 token "
                        "数决定，每条序列的浪费不到一块。",
            example={"kv_budget": 40e9, "kv_bytes_per_token": 320e3, "seq": 1000, "block_size": 16},
            meaning_zh="PagedAttention 下一份 KV 预算能放下多少条 S 个 token 的序列：每条占 ceil(S/b) 个整块"),
    Formula("spec_decode_tokens_per_step", (ACCEPTANCE, DRAFT_TOKENS),
            "(1 - acceptance^(draft_tokens + 1))/(1 - acceptance)", "count",
            "expected tokens per target-model pass with speculative decoding: the accepted run of drafts plus "
            "the one token the target pass always yields (i.i.d. acceptance α, γ drafts)",
            "leviathan2023, chen2023",
            (Misconception("no_bonus_token", "counted only the accepted drafts (forgot the token the target pass adds)",
                           "(1 - acceptance^(draft_tokens + 1))/(1 - acceptance) - 1",
                           "只算了被接受的草稿 token（漏了目标模型这一轮自己产出的那个 token）"),
             Misconception("linear_acceptance", LINEAR_SPEC[0], "draft_tokens*acceptance + 1", LINEAR_SPEC[1])),
            "E[tokens]",
            decomposition=("the target pass always yields one token of its own (the fix at the first rejection, or a "
                           "bonus token when all γ pass); draft i counts only if drafts 1 … i are all accepted, with "
                           "probability α^i",
                           "E = 1 + α + α² + … + α^γ, a geometric series = (1 − α^(γ+1)) / (1 − α)"),
            decomposition_zh=("目标模型这一轮总会自己产出一个 token（在第一个被拒绝处给出修正，或在 γ 个全部通过时多给一个）；"
                              "第 i 个草稿只有在第 1 … i 个都被接受时才算数，概率为 α^i",
                              "E = 1 + α + α² + … + α^γ，等比数列求和 = (1 − α^(γ+1)) / (1 − α)"),
            parts=(Part("all_pass", "α^γ", "acceptance^draft_tokens", "ratio", "chance that all γ drafts are accepted",
                        "γ 个草稿全部被接受的概率"),
                   Part("limit", "1 / (1 − α)", "1/(1 - acceptance)", "count", "the limit as γ grows",
                        "γ 趋于无穷时的极限")),
            simplification=("as γ grows E → 1 / (1 − α) = {limit}: each extra draft adds only α^γ, and E never "
                            "exceeds γ + 1",),
            simplification_zh=("γ 越大，E → 1 / (1 − α) = {limit}：每多一个草稿只多 α^γ，E 也永远不超过 γ + 1",),
            takeaway="however long the draft, a target pass yields at most 1 / (1 − α) = {limit} tokens: raise the "
                     "acceptance rate (a better-aligned draft), not γ.",
            takeaway_zh="草稿再长，目标模型每次前向最多也只能产出 1 / (1 − α) = {limit} 个 token：要提高的是接受率"
                        "（更贴合目标模型的草稿），而不是 γ。",
            example={"acceptance": 0.8, "draft_tokens": 4},
            meaning_zh="投机解码中目标模型每次前向的期望 token 数：被接受的那段草稿，加上目标模型这一轮必然产出的一个 token"
                       "（接受率 α 独立同分布，γ 个草稿）"),
    Formula("spec_decode_speedup", (ACCEPTANCE, DRAFT_TOKENS, COST_RATIO),
            "(1 - acceptance^(draft_tokens + 1))/((1 - acceptance)*(draft_tokens*cost_ratio + 1))", "ratio",
            "speed-up of speculative decoding over plain decoding: expected tokens per step over the cost of one "
            "step (γ draft passes at c each + one target pass)",
            "leviathan2023, chen2023",
            (Misconception("free_draft", "ignored the draft model's cost", "(1 - acceptance^(draft_tokens + 1))"
                           "/(1 - acceptance)", "忽略了草稿模型的开销"),
             Misconception("linear_acceptance_speedup", LINEAR_SPEC[0],
                           "(draft_tokens*acceptance + 1)/(draft_tokens*cost_ratio + 1)", LINEAR_SPEC[1])),
            "speed-up",
            decomposition=("plain decoding yields one token per target pass; a speculative step costs γ draft passes "
                           "at c each plus one target pass, γc + 1 target-pass times, and yields E = (1 − α^(γ+1)) / "
                           "(1 − α) tokens: speed-up = E ÷ (γc + 1)",),
            decomposition_zh=("普通 decode 每次目标前向产出一个 token；投机解码一步的开销是 γ 次草稿前向（每次 c）加一次目标前向，"
                              "即 γc + 1 次目标前向的时间，产出 E = (1 − α^(γ+1)) / (1 − α) 个 token：加速比 = E ÷ (γc + 1)",),
            parts=(Part("tokens", "E", "(1 - acceptance^(draft_tokens + 1))/(1 - acceptance)", "count",
                        "expected tokens per step", "每一步的期望 token 数"),
                   Part("cost", "γc + 1", "draft_tokens*cost_ratio + 1", "count",
                        "cost of one step, in target passes", "一步的开销，以目标前向次数计")),
            via="tokens/cost",
            simplification=("limits: a free draft (c → 0) gives the speed-up E itself, at most 1 / (1 − α); as γ "
                            "grows E stops growing while γc + 1 keeps rising, so the best γ is a few tokens",),
            simplification_zh=("极限：草稿不花时间（c → 0）时加速比就是 E，最多 1 / (1 − α)；γ 越大，E 不再增长而 γc + 1 "
                               "还在涨，所以最优的 γ 只有几个 token",),
            takeaway="the speed-up is tokens per step ÷ cost per step ({tokens} ÷ {cost} here): a cheap, well-aligned "
                     "draft (small c, high α) makes it pay; a long draft or a low acceptance turns it into a slow-down.",
            takeaway_zh="加速比 = 每步 token 数 ÷ 每步开销（这里是 {tokens} ÷ {cost}）：又便宜又贴合的草稿（c 小、α 高）才划算；"
                        "草稿太长或接受率太低反而会变慢。",
            example={"acceptance": 0.8, "draft_tokens": 4, "cost_ratio": 0.05},
            meaning_zh="投机解码相对普通 decode 的加速比：每步的期望 token 数除以每步的开销（γ 次草稿前向，每次 c，加一次目标前向）"),
)

# Multi-LoRA serving (Punica, S-LoRA): "rank-16 adapters on all 7 projections of Llama-3-8B: how big, how many fit next
# to the KV cache, what do 32 distinct adapters in a batch cost per step?"
register(
    Formula("lora_adapter_bytes", (LAYERS, D_IN, D_OUT, LORA_RANK, N_MATRICES, BPE),
            "layers*n_matrices*rank*(d_in + d_out)*bytes_per_elem", "bytes",
            "bytes of one LoRA adapter: its parameters (lora_params) × bytes per element; a memory budget holds "
            "floor(budget ÷ this) adapters", "hu2021, slora2023",
            (Misconception("full_delta", "stored the full-rank update d_in × d_out, not the two rank-r factors",
                           "layers*n_matrices*d_in*d_out*bytes_per_elem", "存成了满秩的 d_in × d_out 更新，而不是两个秩为 r 的因子"),
             Misconception("a_only", "counted only one factor (r·d_in), not both A and B",
                           "layers*n_matrices*rank*d_in*bytes_per_elem", "只算了一个因子（r·d_in），没有同时算 A 和 B")),
            "A",
            decomposition=("each adapted d_in × d_out matrix gets A (r × d_in) and B (d_out × r): r·(d_in + d_out) "
                           "parameters, for n_mat matrices in each of L layers, at the serving precision",),
            decomposition_zh=("每个被适配的 d_in × d_out 矩阵有 A（r × d_in）和 B（d_out × r）：r·(d_in + d_out) 个参数，"
                              "每层 n_mat 个矩阵、共 L 层，按服务精度存储",),
            parts=(Part("params", "Φ_LoRA", "layers*n_matrices*rank*(d_in + d_out)", "count", "the adapter's parameters",
                        "适配器的参数量"),),
            via="params*bytes_per_elem",
            takeaway="one adapter is {result}, a fraction of a percent of its base model: hundreds fit beside the KV "
                     "cache, which is why S-LoRA pages adapters and KV in one pool.",
            takeaway_zh="一个适配器只有 {result}，不到基座模型的百分之一：KV Cache 旁边能放下几百个，所以 S-LoRA 把适配器"
                        "和 KV 放在同一个分页池里。",
            example={"layers": 32, "d_in": 4096, "d_out": 4096, "rank": 16, "n_matrices": 4, "bytes_per_elem": 2},
            meaning_zh="一个 LoRA 适配器的字节数：它的参数量（lora_params）× 每个元素的字节数；一块显存预算能放 "
                       "floor(预算 ÷ 这个值) 个适配器"),
    Formula("multi_lora_step_bytes", (WEIGHT_BYTES_READ, KV_BYTES_READ, DISTINCT_ADAPTERS, ADAPTER_BYTES),
            "weight_bytes + kv_bytes + distinct_adapters*adapter_bytes", "bytes",
            "bytes one memory-bound decode step reads when its batch uses several LoRA adapters: the base weights, the "
            "KV cache, and each distinct adapter once (Punica's SGMV, S-LoRA batching)", "punica2023, slora2023",
            (Misconception("per_sequence", "read an adapter per sequence, not once per distinct adapter",
                           "weight_bytes + kv_bytes + batch*adapter_bytes", "按每条序列读一次适配器，而不是每个不同的适配器读一次"),
             Misconception("no_adapters", "left out the adapters' reads", "weight_bytes + kv_bytes",
                           "漏了读取适配器的字节")),
            "bytes_step",
            decomposition=("a batched LoRA kernel reads the shared base weights once, each sequence's KV, and each "
                           "distinct adapter once however many sequences use it",),
            decomposition_zh=("批量 LoRA kernel 把共享的基座权重读一次，读每条序列的 KV，每个不同的适配器无论多少条序列"
                              "在用都只读一次",),
            parts=(Part("adapters", "n_adapters × A", "distinct_adapters*adapter_bytes", "bytes",
                        "the distinct adapters' bytes", "不同适配器的字节数"),),
            via="weight_bytes + kv_bytes + adapters",
            takeaway="{distinct_adapters} distinct adapters add {adapters} to the {weight_bytes} of base weights: "
                     "batching many tenants' adapters costs a few percent of step time, not a model per tenant.",
            takeaway_zh="{distinct_adapters} 个不同的适配器在 {weight_bytes} 的基座权重上只多读 {adapters}：把很多租户的"
                        "适配器放在一个 batch 里，只多花几个百分点的步时，而不是每个租户一个模型。",
            example={"weight_bytes": 16e9, "kv_bytes": 4e9, "distinct_adapters": 32, "adapter_bytes": 84e6},
            meaning_zh="一个访存受限的 decode 步在 batch 用到多个 LoRA 适配器时读取的字节数：基座权重、KV Cache，"
                       "以及每个不同的适配器各一次（Punica 的 SGMV、S-LoRA 批处理）"),
)
