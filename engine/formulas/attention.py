"""Attention's memory traffic: standard attention vs FlashAttention HBM bytes, their arithmetic
intensity, and the intensity of decode attention with grouped KV heads.

Why attention is memory-bound at decode and how tiling changes the bytes moved (Dao et al. 2022).
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import BPE, HEAD_DIM, N_HEADS, N_KV, SEQ_LEN, SRAM_BYTES
from .registry import register

register(
    # Beyond the spec's part-2 table: what the serving / MoE / FlashAttention / fusion families need.
    Formula("attention_hbm_bytes", (SEQ_LEN.as_("n", "N"), HEAD_DIM.as_("d", "d"), BPE),
            "bytes_per_elem*(4*n*d + 4*n*n)", "bytes",
            "HBM traffic of standard (unfused) attention for one head: read Q, K (2Nd), write S = QKᵀ (N²), read S "
            "and write P = softmax(S) (2N²), read P and V (N² + Nd), write O (Nd)",
            "R§4.3",
            (Misconception("no_scores", "left out the N×N matrices S and P, which standard attention writes to HBM "
                           "and reads back", "4*n*d*bytes_per_elem",
                           "漏了 N×N 的 S 和 P 矩阵：标准注意力会把它们写回显存再读出来"),
             Misconception("scores_once", "wrote S and P but never read them back (count each N×N matrix twice)",
                           "bytes_per_elem*(4*n*d + 2*n*n)", "只算了 S 和 P 的写入，没算读回（每个 N×N 矩阵要算两次）"),
             Misconception("elements", "counted elements, not bytes", "4*n*d + 4*n*n", "算的是元素个数，不是字节数")),
            "HBM_std",
            refs="dao2022",
            decomposition=("the N×N matrices make two round trips: write S = QKᵀ, read S for the softmax, write "
                           "P = softmax(S), read P for PV: 4 × N² elements",
                           "the N×d matrices cross once: read Q and K (for S), read V (for PV), write O: 4 × N × d "
                           "elements; times the bytes per element"),
            decomposition_zh=("N×N 矩阵在显存里往返两次：写 S = QKᵀ，softmax 读 S，写 P = softmax(S)，PV 读 P：4 × N² 个元素",
                              "N×d 矩阵各进出一次：读 Q、K（算 S），读 V（算 PV），写 O：4 × N × d 个元素；元素数再乘每元素字节数"),
            parts=(Part("qkvo", "Bytes(Q,K,V,O)", "4*n*d*bytes_per_elem", "bytes", "read Q, K, V; write O",
                        "读 Q、K、V，写 O"),
                   Part("scores", "Bytes(S,P)", "4*n*n*bytes_per_elem", "bytes", "write S, read S, write P, read P",
                        "写 S、读 S、写 P、读 P")),
            via="qkvo + scores",
            simplification=("the N² terms are N/d times the Nd terms: {scores} of the {result} are S and P; for N ≫ d, "
                            "HBM_std ≈ 4N² × bytes, quadratic in N",),
            simplification_zh=("N² 项是 Nd 项的 N/d 倍：{result} 里有 {scores} 是 S 和 P；N ≫ d 时 "
                               "HBM_std ≈ 4N² × bytes，随 N 平方增长",),
            takeaway="standard attention's traffic is quadratic in N because the N×N attention scores (S, then P) make "
                     "two round trips through HBM: at long context they are nearly all of it, and they are what "
                     "FlashAttention removes.",
            takeaway_zh="标准注意力的访存量随 N 平方增长，因为 N×N 的注意力分数（S 和 P）要在显存里往返两次：长上下文时"
                        "访存几乎全是它们，FlashAttention 省掉的也正是这部分。",
            example={"n": 4096, "d": 128, "bytes_per_elem": 2},
            meaning_zh="标准（未融合）注意力单个头的显存访存量：读 Q、K（2Nd），写 S = QKᵀ（N²），读 S、写 P = softmax(S)"
                       "（2N²），读 P 和 V（N² + Nd），写 O（Nd）"),
    Formula("flash_attention_hbm_bytes", (SEQ_LEN.as_("n", "N"), HEAD_DIM.as_("d", "d"), SRAM_BYTES, BPE),
            "2*n*d*bytes_per_elem*(1 + 2*n*d*bytes_per_elem/sram_bytes)", "bytes",
            "HBM traffic of FlashAttention (forward, one head, FlashAttention-2 loop order): a B × d block of Q fills "
            "half of the SRAM M (the other half holds the K and V tiles streamed past it), B = M / (2·d·bytes); Q is "
            "read and O written once (2Nd), K and V are read once per Q block, N/B times (2Nd · N/B); the O "
            "accumulator and softmax statistics stay on chip and no N×N matrix touches HBM",
            "R§4.3",
            (Misconception("kv_once", "read K and V only once: that needs all of K and V on chip; they are re-read "
                           "for every Q block", "4*n*d*bytes_per_elem",
                           "K 和 V 只算读了一次：那得整个放进片上 SRAM；实际每个 Q 块都要重读一遍"),
             Misconception("standard", "used standard attention's traffic (the N×N matrices in HBM)",
                           "bytes_per_elem*(4*n*d + 4*n*n)", "用了标准注意力的访存量（N×N 矩阵进出显存）")),
            "HBM_flash",
            refs="dao2022, dao2023",
            decomposition=("a block of B rows of Q (B × d × bytes) takes half of the SRAM M and the K, V tiles streamed "
                           "past it the other half: B = M / (2 × d × bytes); Q is read and O written once: 2 × N × d "
                           "elements",
                           "each of the N/B Q blocks reads all of K and V once: 2 × N × d elements per pass; S and P "
                           "live only in SRAM and never touch HBM"),
            decomposition_zh=("B 行的 Q 块（B × d × bytes）占 SRAM M 的一半，流过的 K、V 分块占另一半：B = M / (2 × d × bytes)；"
                              "Q 读一次、O 写一次：2 × N × d 个元素",
                              "N/B 个 Q 块，每块都把整个 K 和 V 读一遍：每遍 2 × N × d 个元素；S 和 P 只在 SRAM 里，从不进显存"),
            parts=(Part("block", "B", "sram_bytes/(2*d*bytes_per_elem)", "count", "rows of Q per block",
                        "每个 Q 块的行数"),
                   Part("passes", "N/B", "n/block", "count", "Q blocks = passes over K and V", "Q 块数 = K、V 被读的遍数"),
                   Part("qo", "Bytes(Q,O)", "2*n*d*bytes_per_elem", "bytes", "read Q once, write O once",
                        "Q 读一次、O 写一次"),
                   Part("kv", "Bytes(K,V)", "2*n*d*bytes_per_elem*passes", "bytes", "read K and V once per Q block",
                        "每个 Q 块读一遍 K 和 V"),
                   Part("gain", "2B/d", "2*block/d", "count",
                        "standard attention's 4N² × bytes of S, P ÷ these K, V re-reads",
                        "标准注意力的 S、P 字节数 4N² × bytes ÷ 这里重读 K、V 的字节数")),
            via="qo + kv",
            simplification=("HBM_flash = 2Nd × bytes × (1 + N/B) with N/B = 2Nd × bytes / M: its only N² term is the K, "
                            "V re-reads, 4N²d² × bytes² / M (the paper's Θ(N²d²/M)); standard attention's is 4N² × "
                            "bytes, M / (d² × bytes) = 2B/d = {gain} times larger, and a larger SRAM widens the gap",),
            simplification_zh=("HBM_flash = 2Nd × bytes × (1 + N/B)，其中 N/B = 2Nd × bytes / M：唯一的 N² 项是重读 K、V，"
                               "4N²d² × bytes² / M（即论文中的 Θ(N²d²/M)）；标准注意力的 N² 项是 4N² × bytes，"
                               "是它的 M / (d² × bytes) = 2B/d = {gain} 倍，SRAM 越大差距越大",),
            takeaway="FlashAttention never writes S or P: its only quadratic traffic is re-reading K and V once per Q "
                     "block, so a bigger SRAM tile (a larger B) cuts it, to about d / (2B) of standard attention's at long N.",
            takeaway_zh="FlashAttention 从不写 S 和 P：它唯一随 N 平方增长的访存是每个 Q 块重读一遍 K、V，所以 SRAM 分块越大"
                        "（B 越大）访存越少，长序列时约为标准注意力的 d / (2B)。",
            example={"n": 4096, "d": 64, "sram_bytes": 65536, "bytes_per_elem": 2},
            meaning_zh="FlashAttention 的显存访存量（前向、单个头、FlashAttention-2 的循环顺序）：B × d 的 Q 块占 SRAM M 的一半"
                       "（另一半放流过的 K、V 分块），B = M / (2·d·bytes)；Q 读一次、O 写一次（2Nd），每个 Q 块读一遍 K 和 V，"
                       "共 N/B 遍（2Nd · N/B）；O 的累加器和 softmax 统计量留在片上，N×N 矩阵从不进显存"),
    Formula("attention_intensity", (SEQ_LEN.as_("n", "N"), HEAD_DIM.as_("d", "d"), BPE),
            "n*d/(bytes_per_elem*(n + d))", "intensity",
            "arithmetic intensity of standard attention for one head: 4N²d FLOPs (QKᵀ and PV, softmax ignored) over "
            "its HBM traffic bytes × (4Nd + 4N²); it grows with N but levels off at d / bytes",
            "R§4.3",
            (Misconception("no_scores_traffic", "assumed the N×N matrices never touch HBM (that is FlashAttention)",
                           "n/bytes_per_elem", "假设 N×N 矩阵不进出显存（那是 FlashAttention）"),
             Misconception("qk_only", "counted only the FLOPs of QKᵀ, not those of PV",
                           "n*d/(2*bytes_per_elem*(n + d))", "只算了 QKᵀ 的 FLOPs，漏了 PV 的")),
            "I_std-attn",
            refs="dao2022",
            decomposition=("FLOPs: QKᵀ and PV each do N × N × d multiply-adds, 2 FLOPs each: 4N²d; bytes: standard "
                           "attention's traffic, bytes × (4Nd + 4N²) = 4N × bytes × (N + d)",
                           "simplify first: 4N²d / (4N × bytes × (N + d)) = N × d / (bytes × (N + d))"),
            decomposition_zh=("FLOPs：QKᵀ 和 PV 各做 N × N × d 次乘加，每次 2 FLOPs：4N²d；字节数：标准注意力的访存量 "
                              "bytes × (4Nd + 4N²) = 4N × bytes × (N + d)",
                              "先化简：4N²d / (4N × bytes × (N + d)) = N × d / (bytes × (N + d))"),
            parts=(Part("work", "FLOPs", "4*n*n*d", "flop", "QKᵀ and PV", "QKᵀ 与 PV"),
                   Part("traffic", "Bytes", "bytes_per_elem*(4*n*d + 4*n*n)", "bytes", "Q, K, V, O and twice S and P",
                        "Q、K、V、O，以及两次 S、P"),
                   Part("cap", "I_max", "d/bytes_per_elem", "intensity", "the ceiling as N grows",
                        "N 增大时的上限")),
            via="work/traffic",
            simplification=("I = (d / bytes) × N / (N + d): it rises with N but never passes d / bytes = {cap}, because "
                            "the N×N traffic grows as fast as the N² FLOPs",),
            simplification_zh=("I = (d / bytes) × N / (N + d)：随 N 增大，但永远不超过 d / bytes = {cap}，因为 N×N 矩阵的"
                               "访存和 N² 的 FLOPs 增长得一样快",),
            takeaway="however long the sequence, standard attention stays under d / bytes ({cap} here): in bf16/fp16 "
                     "that is at most 64 FLOP/B, under every tensor-core ridge (about 140-420 FLOP/B): memory-bound at "
                     "any N.",
            takeaway_zh="序列再长，标准注意力的算术强度也不超过 d / bytes（这里是 {cap}）：bf16/fp16 下最多 64 FLOP/B，"
                        "低于所有 Tensor Core 的拐点（约 140-420 FLOP/B），任何 N 下都是访存受限。",
            example={"n": 4096, "d": 128, "bytes_per_elem": 2},
            meaning_zh="标准注意力单个头的算术强度：4N²d FLOPs（QKᵀ 与 PV，忽略 softmax）除以显存访存量 "
                       "bytes × (4Nd + 4N²)；随 N 增大，但趋于 d / bytes"),
    Formula("decode_attention_intensity", (N_HEADS, N_KV, BPE),
            "2*n_heads/(n_kv_heads*bytes_per_elem)", "intensity",
            "FLOPs per byte of KV cache read by decode attention: each cached K/V element is used by the "
            "n_h/n_kv query heads of its group (2 FLOPs each); GQA raises it by the group size",
            "austin2025, ainslie2023, shazeer2019",
            (Misconception("mha_intensity", "ignored GQA (one query head per KV head)", "2/bytes_per_elem",
                           "忽略了 GQA（当成每个 KV 头只对应一个 Query 头）"),
             Misconception("elements_intensity", "counted elements, not bytes", "2*n_heads/n_kv_heads",
                           "算的是元素个数，不是字节数")), "I_attn",
            decomposition=("per cached token and KV head, decode reads K and V once: 2·d_head elements of `bytes` "
                           "each; each of the g = n_h / n_kv query heads sharing them does a multiply-add with every "
                           "element (q·k, then p·v): 2 FLOPs per element per query head",
                           "I = 2·g·(2·d_head) FLOPs ÷ (2·d_head·bytes) B = 2g / bytes",),
            decomposition_zh=("每个缓存的 token、每个 KV 头，decode 把 K 和 V 各读一次：2·d_head 个元素，每个 bytes 字节；"
                              "共享它们的 g = n_h / n_kv 个 Query 头对每个元素各做一次乘加（先 q·k，再 p·v）：每个元素"
                              "每个 Query 头 2 FLOPs",
                              "I = 2·g·(2·d_head) FLOPs ÷ (2·d_head·bytes) B = 2g / bytes",),
            parts=(Part("group", "g", "n_heads/n_kv_heads", "count", "query heads sharing one KV head",
                        "共享一个 KV 头的 Query 头数"),),
            via="2*group/bytes_per_elem",
            simplification=("d_head, the context length and the batch all cancel (every sequence reads its own "
                            "cache): MHA in bf16 (g = 1) is 1 FLOP/B, GQA with g = 8 is 8 FLOP/B, both far left of "
                            "a GPU's ridge point (~300 FLOP/B on an H100)",),
            simplification_zh=("d_head、上下文长度和 batch 都约掉了（每条序列读的是自己的缓存）：bf16 的 MHA（g = 1）是 "
                                "1 FLOP/B，g = 8 的 GQA 是 8 FLOP/B，都远在 GPU 的拐点（H100 约 300 FLOP/B）左侧",),
            takeaway="decode attention runs at {result} over its KV cache whatever the batch, so it is memory-bound "
                     "on every GPU: only sharing K/V across more query heads (GQA, MQA, MLA) or fewer bytes per "
                     "element raises it.",
            takeaway_zh="decode 阶段注意力对 KV Cache 的算术强度只有 {result}，和 batch 无关，所以在任何 GPU 上都是"
                        "访存受限：只有让更多 Query 头共享 K/V（GQA、MQA、MLA）或减少每个元素的字节数才能提高它。",
            example={"n_heads": 64, "n_kv_heads": 8, "bytes_per_elem": 2},
            meaning_zh="decode 阶段注意力的算术强度：每读一个字节的 KV Cache 做多少 FLOPs（GQA 按组大小提高它）"),
)
