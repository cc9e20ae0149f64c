"""Long context: ring attention's KV traffic, Ulysses' all-to-all bytes, a sliding window's KV cache,
attention's share of training FLOPs as the context grows, and the logits of a large vocabulary.

What changes when sequences reach 128k tokens: the s-linear terms that were small at 4k (attention
FLOPs, KV bytes, logits) become the ones that decide memory and communication.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part, Requirement
from .inputs import (
    ATTN_SHARE,
    BPE,
    CAUSAL,
    CP,
    HEAD_DIM,
    HIDDEN,
    KV_BATCH,
    LAYERS,
    N_HEADS,
    N_KV,
    PHI,
    SEQ_LEN,
    VOCAB,
    WINDOW,
)
from .registry import register

SEQ = SEQ_LEN.as_("seq", "S")
NO_V = ("sent K only, not V (factor 2)", "只传了 K，漏了 V（因子 2）")
NO_KV_FACTOR = ("forgot that both K and V are cached (factor 2)", "忘了 K 和 V 都要缓存（因子 2）")

register(
    Formula("ring_attention_kv_bytes", (KV_BATCH, SEQ, CP, N_KV, HEAD_DIM, BPE),
            "(cp - 1)*2*batch*(seq/cp)*n_kv_heads*d_head*bytes_per_elem", "bytes",
            "K and V bytes each GPU receives per layer in ring attention (forward): cp − 1 blocks of the sequence's "
            "K and V", "liu2023",
            (Misconception("whole_sequence", "passed the whole sequence's K and V at every hop, not one block of S/CP",
                           "(cp - 1)*2*batch*seq*n_kv_heads*d_head*bytes_per_elem",
                           "每一跳都传了整条序列的 K、V，而不是 S/CP 的一块"),
             Misconception("no_v", NO_V[0], "(cp - 1)*batch*(seq/cp)*n_kv_heads*d_head*bytes_per_elem", NO_V[1]),
             Misconception("cp_hops", "counted CP hops: a GPU's own block never travels (CP − 1)",
                           "cp*2*batch*(seq/cp)*n_kv_heads*d_head*bytes_per_elem",
                           "算成了 CP 跳：自己那一块不用传（CP − 1）")),
            "KV_ring",
            decomposition=("each GPU keeps S/CP tokens; their K and V (2 × B × S/CP × n_kv × d_head × bytes) go round the "
                           "ring, so every GPU receives the CP − 1 blocks it does not own",),
            decomposition_zh=("每张卡保留 S/CP 个 token；它们的 K 和 V（2 × B × S/CP × n_kv × d_head × bytes）沿环传递，"
                              "每张卡收到自己没有的 CP − 1 块",),
            parts=(Part("block", "KV_block", "2*batch*(seq/cp)*n_kv_heads*d_head*bytes_per_elem", "bytes",
                        "K and V of one block", "一块的 K 和 V"),),
            via="(cp - 1)*block",
            simplification=("(CP − 1)/CP × the whole sequence's KV: close to all of it for large CP; it is hidden when one "
                            "block's attention compute takes longer than sending the next block",),
            simplification_zh=("等于整条序列 KV 的 (CP − 1)/CP：CP 大时几乎是全部；只要算一块注意力的时间比发下一块长，"
                               "通信就被计算掩盖",),
            takeaway="ring attention sends almost the whole KV of the sequence past every GPU, but overlaps it with the "
                     "blockwise attention: with GQA's small KV the compute hides it.",
            takeaway_zh="Ring Attention 让几乎整条序列的 KV 流经每张卡，但与分块注意力计算重叠：GQA 的 KV 很小，计算足以掩盖它。",
            example={"batch": 1, "seq": 131072, "cp": 8, "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": 2},
            meaning_zh="Ring Attention 中每张卡每层（前向）收到的 K、V 字节数：序列 K、V 的 CP − 1 块", per_device=True),
    Formula("ulysses_alltoall_bytes", (KV_BATCH, SEQ, CP, N_HEADS, N_KV, HEAD_DIM, BPE),
            "batch*(seq/cp)*(cp - 1)/cp*(2*n_heads + 2*n_kv_heads)*d_head*bytes_per_elem", "bytes",
            "bytes each GPU sends per layer in DeepSpeed-Ulysses (forward): Q, K, V all-to-all in and the output back",
            "jacobs2023",
            (Misconception("no_output", "left out the output's all-to-all back (only Q, K and V)",
                           "batch*(seq/cp)*(cp - 1)/cp*(n_heads + 2*n_kv_heads)*d_head*bytes_per_elem",
                           "漏了把输出传回去的那次 All-to-All（只算了 Q、K、V）"),
             Misconception("mha_kv", "counted K and V with all query heads (MHA) on a grouped-KV model",
                           "batch*(seq/cp)*(cp - 1)/cp*4*n_heads*d_head*bytes_per_elem",
                           "在分组 KV 的模型上按全部 Query 头（MHA）算了 K 和 V"),
             Misconception("no_ring_factor", "forgot the (n-1)/n factor",
                           "batch*(seq/cp)*(2*n_heads + 2*n_kv_heads)*d_head*bytes_per_elem", "漏了 (n-1)/n 因子")),
            "bytes_Ulysses",
            decomposition=("Ulysses trades the sequence split for a head split: an all-to-all turns S/CP tokens × all "
                           "heads into S tokens × heads/CP for Q (n_heads), K and V (n_kv each), and another brings the "
                           "output (n_heads) back; each GPU sends (CP − 1)/CP of what it holds",),
            decomposition_zh=("Ulysses 把按序列切分换成按头切分：一次 All-to-All 把 S/CP 个 token × 全部头 变成 S 个 token × "
                              "头/CP，Q（n_heads 个头）、K 和 V（各 n_kv 个）都要换；另一次把输出（n_heads）换回来；"
                              "每张卡发出手里数据的 (CP − 1)/CP",),
            parts=(Part("held", "bytes_held", "batch*(seq/cp)*(2*n_heads + 2*n_kv_heads)*d_head*"
                        "bytes_per_elem", "bytes", "Q, K, V and output this GPU holds", "本卡持有的 Q、K、V 和输出"),),
            via="held*(cp - 1)/cp",
            simplification=("per GPU it does not grow with CP: (S/CP) × (CP − 1)/CP; with MHA it is 4·(S/CP)·d_model·"
                            "(CP − 1)/CP values",),
            simplification_zh=("每张卡的量不随 CP 增长：(S/CP) × (CP − 1)/CP；MHA 时为 4·(S/CP)·d_model·(CP − 1)/CP 个值",),
            takeaway="Ulysses' traffic per GPU falls as CP grows while ring attention's does not; but CP cannot exceed "
                     "the number of KV heads.",
            takeaway_zh="Ulysses 每卡的通信量随 CP 增大而减少，Ring Attention 则不会；但 CP 不能超过 KV 头数。",
            example={"batch": 1, "seq": 131072, "cp": 8, "n_heads": 64, "n_kv_heads": 8, "d_head": 128,
                     "bytes_per_elem": 2},
            meaning_zh="DeepSpeed-Ulysses 中每张卡每层（前向）发送的字节数：Q、K、V 的 All-to-All，以及把输出传回", per_device=True),
    Formula("sliding_window_kv_bytes", (KV_BATCH, SEQ, WINDOW, LAYERS, N_KV, HEAD_DIM, BPE),
            "2*bytes_per_elem*batch*min(seq, window)*layers*n_kv_heads*d_head", "bytes",
            "KV cache with sliding-window attention: each layer keeps at most the last W tokens", "jiang2023",
            (Misconception("whole_sequence", "kept the whole sequence's KV (ignored the window)",
                           "2*bytes_per_elem*batch*seq*layers*n_kv_heads*d_head", "保留了整条序列的 KV（忽略了窗口）"),
             Misconception("no_kv_factor", NO_KV_FACTOR[0], "bytes_per_elem*batch*min(seq, window)*layers*n_kv_heads*d_head",
                           NO_KV_FACTOR[1])),
            "KV_SWA",
            decomposition=("a token attends only to the last W tokens, so the cache is a rolling buffer of min(S, W) "
                           "tokens: 2 (K and V) × bytes × B × min(S, W) × L × n_kv × d_head",),
            decomposition_zh=("每个 token 只关注最近 W 个 token，缓存是 min(S, W) 个 token 的滚动缓冲区：2（K 和 V）× bytes × "
                              "B × min(S, W) × L × n_kv × d_head",),
            parts=(Part("kept", "min(S, W)", "min(seq, window)", "count", "tokens kept per layer", "每层保留的 token 数"),),
            takeaway="past the window the KV cache stops growing: Mistral 7B's 4096-token window caps it whatever the "
                     "context, while information still flows across windows layer by layer.",
            takeaway_zh="超过窗口后 KV Cache 不再增长：Mistral 7B 的 4096 窗口无论上下文多长都封顶，信息仍能逐层跨窗口传递。",
            example={"batch": 1, "seq": 32768, "window": 4096, "layers": 32, "n_kv_heads": 8, "d_head": 128,
                     "bytes_per_elem": 2},
            meaning_zh="滑动窗口注意力的 KV Cache：每层最多保留最近 W 个 token"),
    Formula("attention_flops_share", (PHI, LAYERS, SEQ, HIDDEN.as_("d_model", "d"), CAUSAL),
            "causal*layers*seq*d_model/(6*phi + causal*layers*seq*d_model)", "ratio",
            "share of training FLOPs per token spent in attention scores and values: 12·L·s·d / (6Φ + 12·L·s·d)",
            "C§3.1, chowdhery2022",
            (Misconception("forward_only", "compared attention with 2Φ (forward only) instead of 6Φ",
                           "causal*layers*seq*d_model/(2*phi + causal*layers*seq*d_model)",
                           "拿注意力和 2Φ（只算前向）比，而不是 6Φ"),
             Misconception("ratio_not_share", "divided by 6Φ alone (attention left out of the total)",
                           "causal*layers*seq*d_model/(6*phi)", "只除以了 6Φ（总量里漏了注意力本身）")),
            "share_attn",
            decomposition=("per token, training costs 6Φ for the weights plus 12·L·s·d for QKᵀ and the weighted sum of V "
                           "(forward 4·L·s·d, backward twice that), as in train_flops_per_token; causal masking halves "
                           "the second term",),
            decomposition_zh=("每个 token 的训练开销：权重部分 6Φ，加上 QKᵀ 和对 V 的加权求和 12·L·s·d（前向 4·L·s·d，反向两倍），"
                              "与公式 train_flops_per_token 一致；因果掩码让第二项减半",),
            parts=(Part("attn", "c·L·s·d", "causal*layers*seq*d_model", "flop", "attention FLOPs per token",
                        "每 token 的注意力 FLOPs"),
                   Part("dense", "6Φ", "6*phi", "flop", "weight FLOPs per token", "每 token 的权重 FLOPs")),
            via="attn/(dense + attn)",
            simplification=("with Φ ≈ 12·L·d² the share is s / (6d + s): it passes one half when the sequence is six "
                            "times the model width",),
            simplification_zh=("当 Φ ≈ 12·L·d² 时占比为 s / (6d + s)：序列长度达到隐藏维度的六倍时超过一半",),
            takeaway="6ΦD undercounts long-context training: here attention is {result} of the FLOPs; it is a seventh "
                     "at s = d and half at s = 6d.",
            takeaway_zh="6ΦD 会低估长上下文训练：这里注意力占 FLOPs 的 {result}；s = d 时约占七分之一，s = 6d 时占一半。",
            example={"phi": 8e9, "layers": 32, "seq": 8192, "d_model": 4096},
            meaning_zh="训练时每 token 花在注意力分数和加权求和上的 FLOPs 比例：12·L·s·d / (6Φ + 12·L·s·d)"),
    Formula("attention_share_seq", (PHI, LAYERS, ATTN_SHARE, HIDDEN.as_("d_model", "d"), CAUSAL),
            "6*phi*share/(causal*layers*d_model*(1 - share))", "count",
            "sequence length at which attention takes a given share of the training FLOPs per token: "
            "12·L·s·d / (6Φ + 12·L·s·d) = share, solved for s", "C§3.1, chowdhery2022",
            (Misconception("forward_only", "compared attention with 2Φ (forward only) instead of 6Φ",
                           "2*phi*share/(causal*layers*d_model*(1 - share))",
                           "拿注意力和 2Φ（只算前向）比，而不是 6Φ"),
             Misconception("ratio_not_share", "divided by 6Φ alone (attention left out of the total)",
                           "6*phi*share/(causal*layers*d_model)", "只除以了 6Φ（总量里漏了注意力本身）")),
            "s_share",
            decomposition=("per token, training costs 6Φ for the weights plus 12·L·s·d for QKᵀ and the weighted sum of V "
                           "(forward 4·L·s·d, backward twice that); attention is a share p of the total when "
                           "12·L·s·d = p·(6Φ + 12·L·s·d), i.e. 12·L·s·d / 6Φ = p / (1 − p)",),
            decomposition_zh=("每个 token 的训练开销：权重部分 6Φ，加上 QKᵀ 和对 V 的加权求和 12·L·s·d（前向 4·L·s·d，反向两倍）；"
                              "注意力占比为 p 时 12·L·s·d = p·(6Φ + 12·L·s·d)，即 12·L·s·d / 6Φ = p / (1 − p)",),
            parts=(Part("odds", "p/(1 − p)", "share/(1 - share)", "ratio", "attention FLOPs per weight FLOP",
                        "注意力 FLOPs 与权重 FLOPs 之比"),
                   Part("per_pos", "c·L·d", "causal*layers*d_model", "flop",
                        "attention FLOPs per token for each token of context", "每 token 每个上下文位置的注意力 FLOPs"),
                   Part("dense", "6Φ", "6*phi", "flop", "weight FLOPs per token", "每 token 的权重 FLOPs")),
            via="dense*odds/per_pos",
            simplification=("with Φ ≈ 12·L·d² it is s = 6d · p / (1 − p): half at six times the model width, "
                            "a quarter at 2d",),
            simplification_zh=("当 Φ ≈ 12·L·d² 时 s = 6d · p / (1 − p)：序列长度为隐藏维度的六倍时占一半，2d 时占四分之一",),
            takeaway="the attention term grows with the context while 6Φ does not: it takes that share at {result} "
                     "tokens here and half of the FLOPs at about six times the model width; budget long-context "
                     "training with 6Φ + 12·L·s·d per token, not 6Φ.",
            takeaway_zh="注意力项随上下文增长，6Φ 却不变：这里在 {result} 个 token 时达到该比例，在约六倍隐藏维度时占一半；"
                        "长上下文训练每 token 要按 6Φ + 12·L·s·d 估算，而不是 6Φ。",
            example={"phi": 8e9, "layers": 32, "share": 0.5, "d_model": 4096},
            meaning_zh="注意力占每 token 训练 FLOPs 给定比例时的序列长度：令 12·L·s·d / (6Φ + 12·L·s·d) = 比例，解出 s",
            requires=(Requirement("1 - share", "positive", "attention can never take all the FLOPs: the share must be "
                                  "below 1", "注意力不可能占全部 FLOPs：比例必须小于 1"),)),
    Formula("logits_bytes", (KV_BATCH, SEQ, VOCAB, BPE), "batch*seq*vocab*bytes_per_elem", "bytes",
            "memory of the logits of a batch: one value per token per vocabulary entry (fp32 for the loss)",
            "wijmans2024",
            (Misconception("hidden_not_vocab", "used the hidden size instead of the vocabulary (the logits are V wide)",
                           "batch*seq*d_model*bytes_per_elem", "用了隐藏维度而不是词表大小（logits 宽度是 V）"),
             Misconception("bf16_logits", "counted the logits in bf16 (2 B): the loss upcasts them to fp32 (4 B)",
                           "batch*seq*vocab*2", "按 bf16（2 B）算了 logits：计算损失时会升到 fp32（4 B）")),
            "M_logits",
            decomposition=("the output layer gives every token a score for each of the V vocabulary entries: B × S × V "
                           "values, kept in fp32 (4 B) for a stable softmax and cross-entropy",),
            decomposition_zh=("输出层为每个 token 给出词表中 V 个条目各一个分数：B × S × V 个值，为了 softmax 和交叉熵的数值"
                              "稳定按 fp32（4 B）保存",),
            takeaway="with a 128k-256k vocabulary the logits can outweigh a layer's activations: large-vocabulary training "
                     "computes the loss in chunks and never stores them whole.",
            takeaway_zh="词表达到 128k-256k 时，logits 可能比一层的激活还大：大词表训练分块计算损失，从不整块存储 logits。",
            example={"batch": 8, "seq": 8192, "vocab": 128256, "bytes_per_elem": 4},
            meaning_zh="一批数据的 logits 显存：每个 token 对词表每个条目一个值（算损失时用 fp32）"),
)
