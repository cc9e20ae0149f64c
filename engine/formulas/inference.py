"""Inference: the KV cache (MHA, GQA, MLA), memory-bound decode throughput and step time, the critical
batch, prefill and TTFT, and how many sequences fit a memory or latency budget.

The seeds' module 4 (C§4) and the serving arithmetic interviews add: decode reads every weight and the
KV cache once per step, prefill is compute-bound.
"""

from __future__ import annotations

from .compute import NO_MFU
from .core import Formula, Misconception, Part, Requirement
from .inputs import (
    BPE,
    BW,
    BYTES_PER_PARAM,
    DECODE_BATCH,
    GPUS_BYTES,
    HEAD_DIM,
    KV_BATCH,
    KV_BYTES_READ,
    KV_FULL_SEQ,
    KV_LORA_RANK,
    KV_SEQ,
    LAYERS,
    MATMUL_D,
    MATMUL_F,
    N_KV,
    PEAK,
    PHI,
    PREFILL_MFU,
    PROMPT_TOKENS,
    ROPE_DIM,
    SEQ_LEN,
    TOKENS,
    TPOT_TARGET,
    WEIGHT_BYTES_HELD,
    WEIGHT_BYTES_READ,
)
from .registry import register

NO_KV = ("ignored the KV cache reads", "忽略了 KV Cache 的读取")


register(
    Formula("kv_cache_bytes", (KV_BATCH, SEQ_LEN.as_("seq", "S"), LAYERS, N_KV, HEAD_DIM, BPE),
            "2*bytes_per_elem*batch*seq*layers*n_kv_heads*d_head", "bytes", "KV cache for the whole batch",
            "C§4.1", (Misconception("no_kv_factor", "forgot that both K and V are cached (factor 2)",
                                    "bytes_per_elem*batch*seq*layers*n_kv_heads*d_head", "忘了 K 和 V 都要缓存（因子 2）"),
                      Misconception("used_n_heads", "used the query heads instead of the KV heads (GQA/MQA)",
                                    "2*bytes_per_elem*batch*seq*layers*n_heads*d_head",
                                    "用了 Query 头数而不是 KV 头数（GQA/MQA）"),
                      Misconception("elements", "counted elements, not bytes",
                                    "2*batch*seq*layers*n_kv_heads*d_head", "算的是元素个数，不是字节数")), "M_KV",
            refs="pope2022, ainslie2023",
            decomposition=("per token and layer the cache keeps one K and one V vector for each KV head: "
                           "2 × n_kv × d_head values of `bytes` each; × L layers, × S tokens, × B sequences",),
            decomposition_zh=("每个 token、每层为每个 KV 头缓存一个 K 向量和一个 V 向量：2 × n_kv × d_head 个值，每个 "
                              "bytes 字节；再 × L 层、× S 个 token、× B 条序列",),
            parts=(Part("kv_token", "KV/token", "2*bytes_per_elem*layers*n_kv_heads*d_head", "bytes",
                        "K and V of every layer, for one token", "一个 token 在所有层的 K 和 V"),),
            via="kv_token*batch*seq",
            takeaway="the KV cache grows linearly with batch and sequence length: at long context it, not the weights, "
                     "limits the batch (GQA shrinks it n_heads/n_kv times).",
            takeaway_zh="KV Cache 随 batch 和序列长度线性增长：长上下文时限制 batch 的是它而不是权重（GQA 把它缩小 "
                        "n_heads/n_kv 倍）。",
            example={"batch": 8, "seq": 4096, "layers": 32, "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": 2},
            meaning_zh="整个 batch 的 KV Cache"),
    Formula("kv_bytes_per_token", (LAYERS, N_KV, HEAD_DIM, BPE), "2*bytes_per_elem*layers*n_kv_heads*d_head",
            "bytes", "KV cache bytes added per token (all layers)", "C§4.1",
            (Misconception("no_kv_factor", "forgot that both K and V are cached (factor 2)",
                           "bytes_per_elem*layers*n_kv_heads*d_head", "忘了 K 和 V 都要缓存（因子 2）"),
             Misconception("used_n_heads", "used the query heads instead of the KV heads (GQA/MQA)",
                           "2*bytes_per_elem*layers*n_heads*d_head", "用了 Query 头数而不是 KV 头数（GQA/MQA）"),
             Misconception("one_layer", "counted one layer, not all of them", "2*bytes_per_elem*n_kv_heads*d_head",
                           "只算了一层，没有乘以层数"),
             Misconception("elements", "counted elements, not bytes", "2*layers*n_kv_heads*d_head",
                           "算的是元素个数，不是字节数")), "KV/token",
            refs="pope2022, ainslie2023",
            decomposition=("each layer caches one K and one V vector per KV head for every token: "
                           "2 × n_kv × d_head values of `bytes` each, × L layers",),
            decomposition_zh=("每层为每个 token 的每个 KV 头缓存一个 K 和一个 V 向量：2 × n_kv × d_head 个值，每个 bytes "
                              "字节，再 × L 层",),
            parts=(Part("per_layer", "KV/layer", "2*bytes_per_elem*n_kv_heads*d_head", "bytes", "K and V of one layer",
                        "一层的 K 和 V"),),
            via="per_layer*layers",
            takeaway="know the KV bytes per token of your model: free memory ÷ this number is how many tokens a server "
                     "can hold.",
            takeaway_zh="记住你的模型每 token 的 KV 字节数：空闲显存 ÷ 它 = 服务器能容纳多少个 token。",
            example={"layers": 32, "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": 2},
            meaning_zh="每个 token 新增的 KV Cache 字节数（所有层）"),
    Formula("mla_kv_bytes_per_token", (LAYERS, KV_LORA_RANK, ROPE_DIM, BPE),
            "layers*(kv_lora_rank + rope_dim)*bytes_per_elem", "bytes",
            "KV cache bytes per token with multi-head latent attention: each layer caches one compressed latent "
            "and one RoPE key shared by all heads (no separate K and V)",
            "deepseek2024",
            (Misconception("k_and_v", "cached K and V separately (factor 2): MLA caches one latent for both",
                           "2*layers*(kv_lora_rank + rope_dim)*bytes_per_elem",
                           "把 K 和 V 分开缓存了（因子 2）：MLA 只为两者缓存一个潜向量"),
             Misconception("no_rope_key", "left out the decoupled RoPE key", "layers*kv_lora_rank*bytes_per_elem",
                           "漏了解耦的 RoPE key"),
             Misconception("one_layer_mla", "counted one layer, not all of them",
                           "(kv_lora_rank + rope_dim)*bytes_per_elem", "只算了一层，没有乘以层数")), "KV/token",
            decomposition=("per layer and token MLA caches one compressed latent c_KV of d_c values (every head's K "
                           "and V are up-projected from it) and one decoupled RoPE key of d_R values shared by all "
                           "heads: d_c + d_R values of `bytes` each, × L layers",),
            decomposition_zh=("MLA 每层每个 token 缓存一个 d_c 维的压缩潜向量 c_KV（所有头的 K 和 V 都由它上投影得到），"
                              "外加一个所有头共享的 d_R 维解耦 RoPE key：共 d_c + d_R 个值，每个 bytes 字节，再 × L 层",),
            parts=(Part("values", "d_c + d_R", "kv_lora_rank + rope_dim", "count", "values cached per layer and token",
                        "每层每个 token 缓存的值个数"),
                   Part("per_layer", "KV/layer", "(kv_lora_rank + rope_dim)*bytes_per_elem", "bytes", "latent + RoPE key of one layer",
                        "一层的潜向量加 RoPE key")),
            via="per_layer*layers",
            simplification=("against GQA's 2 × n_kv × d_head values per layer: d_c + d_R values are a GQA cache of "
                            "(d_c + d_R) / (2·d_head) KV heads; DeepSeek's 512 + 64 = 576 equal 2.25 heads of 128, "
                            "a typical GQA model has 8",),
            simplification_zh=("和 GQA 每层 2 × n_kv × d_head 个值相比：d_c + d_R 个值相当于 (d_c + d_R) / (2·d_head) 个 KV "
                               "头的 GQA 缓存；DeepSeek 的 512 + 64 = 576 相当于 2.25 个 128 维的头，而常见的 GQA 模型有 8 个",),
            takeaway="MLA caches {values} values per layer and token whatever the head count, against 2 × 8 × 128 = "
                     "2,048 for 8-head GQA: a several-times smaller cache is what buys long context at a large batch.",
            takeaway_zh="MLA 每层每个 token 只缓存 {values} 个值，与头数无关；8 个 KV 头的 GQA 要 2 × 8 × 128 = 2,048 个："
                        "缓存小好几倍，长上下文下才能跑大 batch。",
            example={"layers": 61, "kv_lora_rank": 512, "rope_dim": 64, "bytes_per_elem": 2},
            meaning_zh="多头潜在注意力（MLA）下每个 token 的 KV Cache 字节数：每层只缓存一个压缩潜向量和一个所有头共享的 "
                       "RoPE key（不再分别缓存 K 和 V）"),
    Formula("decode_tokens_per_s", (BW, WEIGHT_BYTES_READ, KV_BYTES_READ),
            "bandwidth/(weight_bytes + kv_bytes)", "tok_rate",
            "batch-1 decode upper bound: every token reads all weights and the KV cache", "C§4.2",
            (Misconception("no_kv", "ignored the KV cache read", "bandwidth/weight_bytes",
                           "忽略了 KV Cache 的读取"),), "tok/s",
            refs="pope2022",
            decomposition=("at batch 1, every generated token reads all the weights and the whole KV cache from "
                           "memory once; its 2Φ FLOPs take far less time than those bytes",),
            decomposition_zh=("batch 为 1 时，每生成一个 token 都要把全部权重和整个 KV Cache 从显存读一遍；"
                              "它的 2Φ FLOPs 耗时远小于读这些字节",),
            parts=(Part("read", "bytes/token", "weight_bytes + kv_bytes", "bytes", "bytes read per token",
                        "每个 token 读取的字节数"),),
            via="bandwidth/read",
            takeaway="decode at batch 1 reads every weight per token: it is bandwidth, not FLOPs, that sets tok/s.",
            takeaway_zh="batch 为 1 的 decode 每个 token 都要读一遍全部权重：决定 tok/s 的是显存带宽，不是 FLOPs。",
            example={"bandwidth": 3e12, "weight_bytes": 140e9, "kv_bytes": 10e9},
            meaning_zh="batch 为 1 的 decode 上限：每个 token 读全部权重和 KV Cache"),
    Formula("decode_tokens_per_s_batch",
            (BW, WEIGHT_BYTES_READ, KV_SEQ, DECODE_BATCH),
            "batch*bandwidth/(weight_bytes + batch*kv_bytes_per_seq)", "tok_rate",
            "memory-bound decode throughput of a batch: one step reads the weights once and every sequence's KV",
            "C§4.2, R§4.1",
            (Misconception("per_sequence", "gave one sequence's rate, not the batch's",
                           "bandwidth/(weight_bytes + batch*kv_bytes_per_seq)", "给出的是单条序列的速率，不是整个 batch 的"),
             Misconception("no_kv", "ignored the KV cache reads", "batch*bandwidth/weight_bytes", "忽略了 KV Cache 的读取"),
             Misconception("weights_per_seq", "read the weights once per sequence",
                           "batch*bandwidth/(batch*weight_bytes + batch*kv_bytes_per_seq)", "让每条序列各读了一遍权重")), "tok/s",
            refs="pope2022",
            decomposition=("one decode step reads the weights once (shared by the whole batch) and each sequence's KV "
                           "cache, and yields one token per sequence",),
            decomposition_zh=("一步 decode 读一遍权重（整个 batch 共享）和每条序列各自的 KV Cache，每条序列产出一个 token",),
            parts=(Part("step", "bytes/step", "weight_bytes + batch*kv_bytes_per_seq", "bytes",
                        "bytes read per decode step", "每步 decode 读取的字节数"),
                   Part("t_step", "T_step", "step/bandwidth", "time", "time of one step", "一步的时间")),
            via="batch/t_step",
            takeaway="batching shares the weight reads: throughput rises almost linearly with B until the KV reads, "
                     "or compute, take over.",
            takeaway_zh="批处理让多条序列共享权重读取：吞吐几乎随 B 线性增长，直到 KV 读取或算力成为瓶颈。",
            example={"bandwidth": 3e12, "weight_bytes": 140e9, "kv_bytes_per_seq": 1e9, "batch": 16},
            meaning_zh="一个 batch 的访存受限 decode 吞吐：每步读一遍权重和每条序列的 KV"),
    Formula("decode_step_time", (BW, WEIGHT_BYTES_READ, KV_SEQ, DECODE_BATCH),
            "(weight_bytes + batch*kv_bytes_per_seq)/bandwidth", "time",
            "time of one memory-bound decode step (the TPOT lower bound): read the weights once and every "
            "sequence's KV cache",
            "C§4.2",
            (Misconception("no_kv_step", NO_KV[0], "weight_bytes/bandwidth", NO_KV[1]),
             Misconception("weights_per_seq_step", "read the weights once per sequence",
                           "batch*(weight_bytes + kv_bytes_per_seq)/bandwidth", "让每条序列各读了一遍权重"),
             Misconception("one_seq_kv", "read one sequence's KV cache instead of the whole batch's",
                           "(weight_bytes + kv_bytes_per_seq)/bandwidth", "只读了一条序列的 KV Cache，而不是整个 batch 的")),
            "TPOT",
            refs="kipply2022, pope2022",
            decomposition=("a decode step gives every sequence of the batch one token; it is memory-bound, so its time "
                           "is the bytes it reads ÷ the bandwidth: the weights W once (shared by the whole batch) plus "
                           "each sequence's KV cache, B × KV_seq",),
            decomposition_zh=("一个 decode 步给 batch 里每条序列各生成一个 token；它是访存受限的，耗时 = 读取的字节数 ÷ 带宽："
                              "权重 W 读一遍（整个 batch 共享），再加每条序列各自的 KV Cache，共 B × KV_seq",),
            parts=(Part("kv_batch", "B × KV_seq", "batch*kv_bytes_per_seq", "bytes",
                        "KV cache of the whole batch, read every step", "整个 batch 的 KV Cache，每步都要读一遍"),
                   Part("step", "bytes/step", "weight_bytes + kv_batch", "bytes", "bytes read per decode step",
                        "每个 decode 步读取的字节数")),
            via="step/bandwidth",
            simplification=("W = {weight_bytes} against B × KV_seq = {kv_batch}: while B × KV_seq ≪ W, TPOT ≈ W / BW, "
                            "the floor no batch goes below, and each extra sequence adds only KV_seq / BW",),
            simplification_zh=("W = {weight_bytes}，B × KV_seq = {kv_batch}：只要 B × KV_seq ≪ W，TPOT ≈ W / BW，"
                               "这是 batch 再小也低不过的下限；每多一条序列只多 KV_seq / BW",),
            takeaway="decode is bandwidth-bound: TPOT = bytes read per step ÷ BW; at small batch the weight read "
                     "dominates, so batching raises throughput almost linearly at little cost in TPOT until the KV "
                     "reads catch up.",
            takeaway_zh="decode 受显存带宽限制：TPOT = 每步读取的字节数 ÷ 带宽；小 batch 时权重读取占大头，所以加大 batch "
                        "几乎线性地提高吞吐、TPOT 却涨得很少，直到 KV 读取追上来。",
            example={"bandwidth": 3e12, "weight_bytes": 140e9, "kv_bytes_per_seq": 1e9, "batch": 16},
            meaning_zh="一个访存受限 decode 步的时间（TPOT 的下限）：读一遍权重和每条序列的 KV Cache"),
    Formula("critical_batch", (PEAK, BW, BPE), "peak_flops/bandwidth*bytes_per_elem/2", "count",
            "decode batch at which weight-streaming GEMMs become compute-bound (ridge × bytes / 2)",
            "R§4.1, C§4.2",
            (Misconception("ridge", "gave the ridge point itself (forgot bytes/2 FLOP per weight)",
                           "peak_flops/bandwidth", "直接给出了拐点本身（漏了 × 字节数/2：每个权重每条序列 2 FLOP）"),
             Misconception("no_half", "forgot that a weight does 2 FLOPs per sequence",
                           "peak_flops/bandwidth*bytes_per_elem", "忘了每个权重对每条序列要做 2 FLOP")), "B*",
            refs="pope2022",
            decomposition=("per step each weight is read once (`bytes` B) and used for 2 FLOPs per sequence: a decode "
                           "GEMM does 2B / bytes FLOP/B, which reaches the ridge I* at B = I* × bytes / 2",),
            decomposition_zh=("每步每个权重读一次（bytes 字节），对每条序列做 2 FLOPs：decode GEMM 的算术强度为 "
                              "2B / bytes FLOP/B，在 B = I* × bytes / 2 时到达拐点 I*",),
            parts=(Part("ridge", "I*", "peak_flops/bandwidth", "intensity", "ridge point", "拐点算术强度"),),
            via="ridge*bytes_per_elem/2",
            takeaway="below this batch decode leaves the tensor cores idle: servers batch requests to get near it, and "
                     "quantised weights lower it.",
            takeaway_zh="batch 低于它时 decode 让 Tensor Core 闲着：推理服务要把请求攒成 batch 来接近它；权重量化会降低它。",
            example={"peak_flops": 1000e12, "bandwidth": 4e12, "bytes_per_elem": 2},
            meaning_zh="decode 时权重 GEMM 转为算力受限的 batch（拐点 × 字节数 / 2）"),
    Formula("prefill_time", (PHI, TOKENS, PEAK), "2*phi*tokens/peak_flops", "time",
            "prefill lower bound: compute-bound forward pass over the prompt", "C§4.2",
            (Misconception("training_flops", "used 6Φ per token (training) instead of 2Φ (forward)",
                           "6*phi*tokens/peak_flops", "每个 token 用了 6Φ（训练），应为 2Φ（前向）"),), "T_prefill",
            refs="pope2022",
            decomposition=("prefill runs the whole prompt at once: big GEMMs, compute-bound, 2Φ FLOPs per token at the "
                           "peak",),
            decomposition_zh=("prefill 一次处理整段 prompt：大 GEMM，算力受限，每 token 2Φ FLOPs、按峰值算力计",),
            parts=(Part("work", "2Φ·D", "2*phi*tokens", "flop", "forward FLOPs of the prompt", "整段 prompt 的前向 FLOPs"),),
            via="work/peak_flops",
            takeaway="prefill is compute-bound and decode memory-bound: time-to-first-token and tokens per second are "
                     "tuned by different means.",
            takeaway_zh="prefill 算力受限、decode 访存受限：首 token 延迟和每秒 token 数要用不同手段优化。",
            example={"phi": 7e9, "tokens": 2000, "peak_flops": 1000e12},
            meaning_zh="prefill 的时间下限：整段 prompt 的前向按峰值算力计"),
    Formula("ttft", (PHI, PROMPT_TOKENS, PEAK, PREFILL_MFU),
            "2*phi*prompt_tokens/(peak_flops*mfu)", "time",
            "time to first token: a compute-bound prefill of the prompt (2Φ FLOPs per token) at a given "
            "utilisation; queueing and the first decode step ignored",
            "C§4.2, C§3.1",
            (Misconception("training_flops_ttft", "used 6Φ per token (training) instead of 2Φ (forward)",
                           "6*phi*prompt_tokens/(peak_flops*mfu)", "每个 token 用了 6Φ（训练），应为 2Φ（前向）"),
             Misconception("no_mfu_ttft", NO_MFU[0], "2*phi*prompt_tokens/peak_flops", NO_MFU[1])), "TTFT",
            refs="pope2022, kipply2022, kaplan2020",
            decomposition=("prefill runs the whole prompt through the model in one forward pass: 2Φ FLOPs per token "
                           "(a multiply and an add per weight) × S_prompt tokens; those are large GEMMs, compute-bound, "
                           "so they run at peak × MFU",),
            decomposition_zh=("prefill 用一次前向把整个 prompt 过一遍模型：每个 token 2Φ FLOPs（每个权重一次乘一次加）"
                              "× S_prompt 个 token；这些是大矩阵乘，算力受限，所以按峰值 × MFU 的速度跑",),
            parts=(Part("work", "FLOPs", "2*phi*prompt_tokens", "flop", "forward FLOPs of the whole prompt",
                        "整个 prompt 的前向 FLOPs"),
                   Part("rate", "F_peak·MFU", "peak_flops*mfu", "flop_rate", "FLOP/s the prefill sustains",
                        "prefill 实际持续的算力")),
            via="work/rate",
            simplification=("2Φ per token leaves out attention over the prompt (Kaplan et al.: + 2 × L × S × d_model "
                            "FLOPs per token), small while S ≪ 12 × d_model: for long prompts the real TTFT is longer",),
            simplification_zh=("每 token 2Φ 没算注意力对整个 prompt 的计算（Kaplan 等：每 token 另加 2 × L × S × d_model "
                               "FLOPs），S ≪ 12 × d_model 时可以忽略；prompt 很长时实际 TTFT 更长",),
            takeaway="TTFT is set by compute (2Φ per prompt token at peak × MFU), TPOT by bandwidth: long prompts need "
                     "FLOP/s, long answers need bandwidth.",
            takeaway_zh="TTFT 由算力决定（每个 prompt token 2Φ，按峰值 × MFU 算），TPOT 由带宽决定：长 prompt 要算力，"
                        "长输出要带宽。",
            example={"phi": 7e10, "prompt_tokens": 2000, "peak_flops": 1000e12, "mfu": 0.5},
            meaning_zh="首 token 延迟：prompt 的 prefill 算力受限（每 token 2Φ FLOPs），按给定利用率计；忽略排队和第一个 "
                       "decode 步"),
    Formula("ttft_floor", (PHI, PROMPT_TOKENS, PEAK, PREFILL_MFU, BW, BYTES_PER_PARAM.as_("bytes_per_param", "bytes")),
            "max(2*phi*prompt_tokens/(peak_flops*mfu), bytes_per_param*phi/bandwidth)", "time",
            "time to first token with its floor: the prefill's compute at peak × MFU, but never less than reading "
            "every weight once (a short prompt is memory-bound like a decode step)", "pope2022, kipply2022",
            (Misconception("compute_only_ttft", "priced a short prefill by its compute alone: it still reads every "
                           "weight once, which takes longer",
                           "2*phi*prompt_tokens/(peak_flops*mfu)", "只按算力给短 prefill 计时：它仍要把每个权重读一遍，那更慢"),
             Misconception("training_flops_floor", "used 6Φ per token (training) instead of 2Φ (forward)",
                           "max(6*phi*prompt_tokens/(peak_flops*mfu), bytes_per_param*phi/bandwidth)",
                           "每个 token 用了 6Φ（训练），应为 2Φ（前向）"),
             Misconception("no_mfu_floor", NO_MFU[0],
                           "max(2*phi*prompt_tokens/peak_flops, bytes_per_param*phi/bandwidth)", NO_MFU[1])), "TTFT",
            decomposition=("prefill does 2Φ FLOPs per prompt token at peak × MFU, and it reads every weight once, "
                           "bytes × Φ at the memory bandwidth; the two overlap, so the slower sets TTFT: a long prompt "
                           "is compute-bound, a prompt of a few dozen tokens is bound by the weight read",),
            decomposition_zh=("prefill 每个 prompt token 做 2Φ FLOPs，按峰值 × MFU 计；它还要把每个权重读一遍，即 bytes × Φ，"
                              "按显存带宽计；两者重叠，较慢的那个决定 TTFT：长 prompt 算力受限，几十个 token 的 prompt "
                              "受权重读取限制",),
            parts=(Part("t_compute", "T_compute", "2*phi*prompt_tokens/(peak_flops*mfu)", "time",
                        "the prompt's FLOPs at peak × MFU", "按峰值 × MFU 计的 prompt FLOPs"),
                   Part("t_weights", "T_weights", "bytes_per_param*phi/bandwidth", "time",
                        "reading every weight once", "把每个权重读一遍")),
            via="max(t_compute, t_weights)",
            takeaway="a prefill is compute-bound only above about F_peak·MFU / (BW × 2/bytes) tokens: below that, "
                     "TTFT is the weight read, as a decode step's time is.",
            takeaway_zh="prefill 只有在约 F_peak·MFU /（BW × 2/bytes）个 token 以上才算力受限：低于它，TTFT 就是读一遍权重的时间，"
                        "和一个 decode 步一样。",
            example={"phi": 8e9, "prompt_tokens": 80, "peak_flops": 989e12, "mfu": 0.5, "bandwidth": 3.35e12,
                     "bytes_per_param": 2},
            meaning_zh="带下限的首 token 延迟：prefill 的算力时间（峰值 × MFU），但不少于把每个权重读一遍的时间"
                       "（短 prompt 和 decode 步一样访存受限）"),
    Formula("max_batch_fit", (GPUS_BYTES, WEIGHT_BYTES_HELD, KV_FULL_SEQ),
            "floor((gpu_bytes - weight_bytes)/kv_bytes_per_seq)", "count",
            "largest batch whose KV cache fits in memory next to the weights (activations ignored)", "R§5.4, C§4",
            (Misconception("no_weights", "forgot that the weights take memory too",
                           "floor(gpu_bytes/kv_bytes_per_seq)", "忘了权重也要占显存"),
             Misconception("rounded_up", "rounded up: the last sequence would not fit",
                           "ceil((gpu_bytes - weight_bytes)/kv_bytes_per_seq)", "向上取整了：最后一条序列放不下")), "B_max",
            refs="pope2022",
            decomposition=("the weights take W; every sequence needs its full KV cache; round down: a partial sequence "
                           "does not fit",),
            decomposition_zh=("权重占 W；每条序列需要完整的 KV Cache；向下取整：放不下一整条就不算",),
            parts=(Part("free", "M_gpu − W", "gpu_bytes - weight_bytes", "bytes", "memory left for the KV cache",
                        "留给 KV Cache 的显存"),),
            takeaway="free memory ÷ KV per sequence bounds the batch: the KV cache, not FLOPs, sets how many requests a "
                     "server runs at once.",
            takeaway_zh="空闲显存 ÷ 每条序列的 KV 决定 batch 上限：决定服务器并发的是 KV Cache，而不是算力。",
            example={"gpu_bytes": 80e9, "weight_bytes": 16e9, "kv_bytes_per_seq": 2e9},
            meaning_zh="在权重之外 KV Cache 还放得下的最大 batch（忽略激活）"),
    Formula("max_batch_tpot", (TPOT_TARGET, BW, WEIGHT_BYTES_HELD, KV_SEQ),
            "floor((tpot_target*bandwidth - weight_bytes)/kv_bytes_per_seq)", "count",
            "largest decode batch whose memory-bound step (W + B·KV_seq) / BW meets a TPOT target",
            "C§4.2, R§5.4",
            (Misconception("no_weights_read", "forgot that every step reads the weights too",
                           "floor(tpot_target*bandwidth/kv_bytes_per_seq)", "忘了每一步也要把权重读一遍"),
             Misconception("rounded_up", "rounded up: that batch misses the target",
                           "ceil((tpot_target*bandwidth - weight_bytes)/kv_bytes_per_seq)", "向上取整了：那个 batch 达不到目标")),
            "B_max",
            refs="kipply2022, pope2022",
            decomposition=("a decode step reads W + B × KV_seq bytes, so TPOT = (W + B × KV_seq) / BW ≤ TPOT_max; "
                           "solve for B: within the target the memory reads TPOT_max × BW bytes, the weights take W of "
                           "them, every sequence KV_seq of the rest; round down",),
            decomposition_zh=("一个 decode 步读 W + B × KV_seq 字节，所以 TPOT = (W + B × KV_seq) / BW ≤ TPOT_max；"
                              "对 B 求解：目标时间内显存能读 TPOT_max × BW 字节，权重先占 W，剩下的每条序列占 KV_seq；"
                              "向下取整",),
            parts=(Part("budget", "TPOT_max × BW", "tpot_target*bandwidth", "bytes",
                        "bytes the memory reads within the target", "目标时间内显存能读的字节数"),
                   Part("room", "TPOT_max × BW − W", "budget - weight_bytes", "bytes",
                        "left for KV reads after the weights", "扣掉权重后留给 KV 读取的字节数")),
            via="floor(room/kv_bytes_per_seq)",
            simplification=("B_max = (BW × TPOT_max − W) / KV_seq: the target must first pay for the weight read "
                            "W / BW; a target below it allows no batch at all, and a longer context (larger KV_seq) "
                            "shrinks B_max as 1 / KV_seq",),
            simplification_zh=("B_max = (BW × TPOT_max − W) / KV_seq：目标时间先要付掉读权重的 W / BW；目标比它还短就一条"
                               "序列也跑不了，上下文越长（KV_seq 越大），B_max 与 KV_seq 成反比地变小",),
            takeaway="the TPOT target fixes the bytes a step may read: the weights take their share first and each "
                     "sequence's KV cache the rest, so a longer context or a tighter SLO cuts the batch, and the "
                     "throughput with it.",
            takeaway_zh="TPOT 目标决定了每步能读多少字节：先扣掉权重，剩下的按每条序列的 KV Cache 分，所以上下文越长或 "
                        "SLO 越紧，batch 越小，吞吐也跟着降。",
            example={"tpot_target": 0.05, "bandwidth": 3e12, "weight_bytes": 70e9, "kv_bytes_per_seq": 1e9},
            meaning_zh="访存受限的 decode 步 (W + B·KV_seq) / BW 满足 TPOT 目标时的最大 batch"),
    Formula("critical_batch_exact", (PEAK, BW, MATMUL_D, MATMUL_F, BPE),
            "peak_flops/bandwidth*bytes_per_elem*d*f/(2*d*f - peak_flops/bandwidth*bytes_per_elem*(d + f))", "count",
            "tokens B at which a [B, d] × [d, f] matmul reaches the ridge point, every operand of one element size: "
            "R·b·d·f / (2df − R·b·(d + f))", "austin2025",
            (), "B_crit",
            decomposition=("the matmul does 2·B·d·f FLOPs and moves b·(B·d + d·f + B·f) bytes (input, weights, output); "
                           "setting FLOPs ÷ bytes = R, the ridge point, and solving for B gives R·b·d·f / (2df − R·b·(d + f))",),
            decomposition_zh=("矩阵乘做 2·B·d·f 次 FLOPs，搬运 b·(B·d + d·f + B·f) 字节（输入、权重、输出）；令 FLOPs ÷ 字节数 "
                              "= 拐点 R，解出 B = R·b·d·f / (2df − R·b·(d + f))",),
            parts=(Part("ridge", "R", "peak_flops/bandwidth", "intensity", "the ridge point", "拐点"),
                   Part("denominator", "2df − R·b(d + f)", "2*d*f - ridge*bytes_per_elem*(d + f)", "count",
                        "positive only if the matmul can ever be compute-bound", "只有矩阵乘能达到计算受限时才为正")),
            via="ridge*bytes_per_elem*d*f/denominator",
            simplification=("for large d and f the input and output bytes vanish beside the weights and B → R·b/2, the "
                            "~240-300 of critical_batch; this is not McCandlish's gradient-noise critical batch size, "
                            "which is about optimisation, not hardware",),
            simplification_zh=("d、f 很大时输入和输出的字节相对权重可以忽略，B → R·b/2，即 critical_batch 的约 240-300；"
                               "这不是 McCandlish 的梯度噪声临界批大小，那是关于优化的，不是关于硬件的",),
            takeaway="a finite matmul needs a larger batch than R·b/2 to be compute-bound, and a narrow one (2df ≤ "
                     "R·b·(d + f)) never is.",
            takeaway_zh="有限大小的矩阵乘要达到计算受限，批大小必须超过 R·b/2；太窄的（2df ≤ R·b·(d + f)）永远达不到。",
            example={"peak_flops": 989e12, "bandwidth": 3.35e12, "d": 8192, "f": 8192, "bytes_per_elem": 2},
            meaning_zh="[B, d] × [d, f] 矩阵乘达到拐点时的 token 数 B（所有操作数同一元素大小）："
                       "R·b·d·f / (2df − R·b·(d + f))",
            refs="mccandlish2018",
            requires=(Requirement("2*d*f - peak_flops/bandwidth*bytes_per_elem*(d + f)", "positive",
                                  "never compute-bound: 2df ≤ R·b·(d + f), so the matmul's intensity stays below the "
                                  "ridge point at any batch",
                                  "永远不会计算受限：2df ≤ R·b·(d + f)，无论批多大，矩阵乘的算术强度都低于拐点"),)),
)
