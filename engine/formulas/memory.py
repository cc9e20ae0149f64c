"""Training memory: the static bytes of mixed-precision AdamW, the ZeRO stages, weights, and activations.

The seeds' module 1 (C§1): what a model costs in GPU memory before and during training, from the
16 bytes per parameter of the training state to the per-layer activations Korthikanti et al. count.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BYTES_PER_PARAM,
    GPU_BYTES,
    HEADS,
    HIDDEN,
    LAYER_ACT_BYTES,
    LAYERS,
    MATRIX_COLS,
    MATRIX_ROWS,
    MICRO_BATCH,
    MLP_SBF,
    N_DP,
    N_KV,
    OPTIMIZER,
    OVERHEAD,
    PHI,
    RECIPE,
    SEQ_LEN,
    STATIC_BYTES_PER_PARAM,
    SWIGLU_FFN,
    TOTAL_BYTES,
)
from .registry import register

# The ZeRO stages under a mixed-precision ``recipe`` (16, 18 or 20 B per parameter; inputs.RECIPE): ZeRO-1
# replicates the weights and gradients, K = 2 + 2 (recipe 16), 2 + 4 (18: fp32 gradients) or 2 + 2 (20: its fp32
# main gradients live with the optimizer state, as in Megatron-LM's distributed optimizer), and shards the rest;
# ZeRO-2 also shards the gradients (only the 2 B bf16 weights stay whole); ZeRO-3 shards everything.
#   16: 4 + 12/d, 2 + 14/d, 16/d    18: 6 + 12/d, 2 + 16/d, 18/d    20: 4 + 16/d, 2 + 18/d, 20/d
# 8-bit Adam (10) and one fp32 state (12) keep bf16 weights and gradients too: 4 + 6/d and 4 + 8/d under ZeRO-1.
ZERO1_KEPT = "(4 + max(0, min(recipe - 16, 20 - recipe)))"
ZERO_RECIPE_EXPR = {1: f"phi*{ZERO1_KEPT} + phi*(recipe - {ZERO1_KEPT})/n_dp",
                    2: "2*phi + phi*(recipe - 2)/n_dp", 3: "recipe*phi/n_dp"}

# The activation memory of a Llama-style layer, counted as Korthikanti et al. count a GPT layer (their §4.1:
# 34sbh + 5as²b = attention 11sbh + 5as²b, MLP 19sbh, two LayerNorms 4sbh), bf16 (2 B per value), no
# FlashAttention, no recomputation, no tensor/sequence parallelism.  h_kv = h·n_kv/a is the K/V width.
#   attention: QKV input 2sbh + Q 2sbh + K 2sb·h_kv + V 2sb·h_kv + softmax output 2as²b (no dropout: the same
#              tensor feeds the ·V matmul) + output-projection input 2sbh     = 6sbh + 4sb·h_kv + 2as²b
#              (GPT: + dropout mask as²b + dropout output 2as²b + attention-dropout mask sbh)
#   MLP:       gate/up input 2sbh + gate and up outputs 4sbf (SwiGLU's backward needs both)
#              + down-projection input 2sbf                                     = 2sbh + 6sbf
#              (GPT: 2sbh + GELU input 8sbh + GELU output 8sbh + dropout mask sbh = 19sbh)
#   norms:     two RMSNorm inputs                                               = 4sbh
#   total:     12sbh + 4sb·h·n_kv/a + 6sbf + 2as²b   (GPT-style: 34sbh + 5as²b)
SWIGLU_LAYER_MEANING = (
    "activation memory of one Llama-style layer (RMSNorm, SwiGLU MLP of inner size f, no dropout, no biases), bf16, "
    "no recomputation: attention 6sbh + 4sb·h·n_kv/a (Q, K, V at their widths) + 2as²b (softmax output, no dropout "
    "copy or masks); MLP 2sbh + 6sbf (gate and up outputs kept for SwiGLU's backward, down-projection input); "
    "two norm inputs 4sbh. With a 4h GELU MLP and dropout the same count gives Korthikanti's 34sbh + 5as²b")


register(
    Formula("train_static_bytes", (PHI, STATIC_BYTES_PER_PARAM, OVERHEAD), "bytes_per_param*phi*(1 + overhead)", "bytes",
            "static training memory: 2 params + 2 grads + 12 AdamW fp32 (master, m, v) bytes per parameter",
            "C§1.1", (Misconception("weights_only", "counted only the fp16 weights (2Φ)", "2*phi", "只算了 fp16 权重（2Φ）"),
                      Misconception("optimizer_only", "counted only the AdamW states (12Φ)", "12*phi",
                                    "只算了 AdamW 优化器状态（12Φ）"),
                      Misconception("no_optimizer", "counted weights and gradients but not the optimizer (4Φ)", "4*phi",
                                    "算了权重和梯度，但漏了优化器状态（4Φ）")),
            "M_static",
            refs="micikevicius2018, rajbhandari2020",
            decomposition=("M_static = 2Φ bf16 weights + 2Φ bf16 gradients + 12Φ fp32 AdamW states "
                           "(4Φ master weights + 4Φ momentum + 4Φ variance) = 16Φ",),
            decomposition_zh=("M_static = 2Φ bf16 权重 + 2Φ bf16 梯度 + 12Φ fp32 AdamW 状态"
                              "（4Φ 主权重 + 4Φ 动量 + 4Φ 方差）= 16Φ",),
            parts=(Part("w_bf16", "W", "2*phi", "bytes", "bf16 weights, 2 B each", "bf16 权重，每个 2 B"),
                   Part("g_bf16", "G", "2*phi", "bytes", "bf16 gradients, 2 B each", "bf16 梯度，每个 2 B"),
                   Part("adam", "Opt", "12*phi", "bytes", "fp32 master weights, momentum and variance, 4 B each",
                        "fp32 主权重、动量、方差，各 4 B")),
            via="w_bf16 + g_bf16 + adam",
            takeaway="mixed-precision AdamW costs 16 bytes per parameter before a single activation: "
                     "{phi} parameters need {result} just for the training state.",
            takeaway_zh="混合精度 AdamW 每个参数要 16 字节，这还没算激活：{phi} 个参数光训练状态就要 {result}。",
            example={"phi": 7e9}, plain_expr="16*phi",
            meaning_zh="静态训练显存：每个参数 2 B 权重 + 2 B 梯度 + 12 B AdamW fp32 状态（主权重、m、v）"),
    Formula("zero1_bytes", (PHI, N_DP, RECIPE), ZERO_RECIPE_EXPR[1], "bytes",
            "per-GPU static memory with ZeRO-1 (optimizer states sharded)", "C§1.2",
            (Misconception("zero2", "used the ZeRO-2 formula (2Φ + 14Φ/N)", "2*phi + 14*phi/n_dp",
                           "用成了 ZeRO-2 的公式（2Φ + 14Φ/N）"),
             Misconception("zero3", "used the ZeRO-3 formula (16Φ/N)", "16*phi/n_dp", "用成了 ZeRO-3 的公式（16Φ/N）"),
             Misconception("unsharded", "did not shard anything (16Φ)", "16*phi", "什么都没有切分（16Φ）")), "M_ZeRO-1",
            refs="rajbhandari2020",
            decomposition=("ZeRO-1 shards only the 12Φ optimizer states over the N_dp GPUs; every GPU still keeps the "
                           "whole 2Φ bf16 weights and 2Φ bf16 gradients: 4Φ + 12Φ/N_dp",),
            decomposition_zh=("ZeRO-1 只把 12Φ 的优化器状态切分到 N_dp 张 GPU 上；每张 GPU 仍保留完整的 2Φ bf16 权重和 "
                              "2Φ bf16 梯度：4Φ + 12Φ/N_dp",),
            parts=(Part("kept", "W+G", "4*phi", "bytes", "weights and gradients, replicated", "权重和梯度，每卡一份完整副本"),
                   Part("shard", "Opt/N_dp", "12*phi/n_dp", "bytes", "this GPU's share of the AdamW states",
                        "本卡分到的 AdamW 状态")),
            via="kept + shard",
            simplification=("as N_dp grows the shard vanishes and ZeRO-1 tends to 4Φ = {kept}: the replicated weights "
                            "and gradients are the floor",),
            simplification_zh=("N_dp 增大时切片趋于 0，ZeRO-1 趋于 4Φ = {kept}：复制的权重和梯度是下限",),
            takeaway="ZeRO-1 removes the biggest term, the 12Φ of AdamW state, at no extra communication: "
                     "the same volume as plain data parallelism.",
            takeaway_zh="ZeRO-1 切掉了最大的一项（12Φ 的 AdamW 状态），通信量却和普通数据并行一样。",
            example={"phi": 7e9, "n_dp": 8}, plain_expr="4*phi + 12*phi/n_dp",
            meaning_zh="ZeRO-1 下每张 GPU 的静态显存（切分优化器状态）", per_device=True),
    Formula("zero2_bytes", (PHI, N_DP, RECIPE), ZERO_RECIPE_EXPR[2], "bytes",
            "per-GPU static memory with ZeRO-2 (optimizer states and gradients sharded)", "C§1.2",
            (Misconception("zero1", "used the ZeRO-1 formula (4Φ + 12Φ/N)", "4*phi + 12*phi/n_dp",
                           "用成了 ZeRO-1 的公式（4Φ + 12Φ/N）"),
             Misconception("zero3", "used the ZeRO-3 formula (16Φ/N)", "16*phi/n_dp", "用成了 ZeRO-3 的公式（16Φ/N）"),
             Misconception("unsharded", "did not shard anything (16Φ)", "16*phi", "什么都没有切分（16Φ）")), "M_ZeRO-2",
            refs="rajbhandari2020",
            decomposition=("ZeRO-2 shards the gradients too: only the 2Φ bf16 weights stay whole; gradients and "
                           "optimizer states, 2Φ + 12Φ = 14Φ, are split N_dp ways: 2Φ + 14Φ/N_dp",),
            decomposition_zh=("ZeRO-2 把梯度也切分了：只有 2Φ bf16 权重保持完整；梯度和优化器状态 2Φ + 12Φ = 14Φ "
                              "分成 N_dp 份：2Φ + 14Φ/N_dp",),
            parts=(Part("kept", "W", "2*phi", "bytes", "bf16 weights, replicated", "bf16 权重，每卡一份完整副本"),
                   Part("shard", "(G+Opt)/N_dp", "14*phi/n_dp", "bytes", "this GPU's share of gradients and AdamW states",
                        "本卡分到的梯度与 AdamW 状态")),
            via="kept + shard",
            simplification=("as N_dp grows ZeRO-2 tends to 2Φ = {kept}: the replicated weights are the floor",),
            simplification_zh=("N_dp 增大时 ZeRO-2 趋于 2Φ = {kept}：复制的权重是下限",),
            takeaway="ZeRO-2 reduce-scatters the gradients instead of all-reducing them: the same traffic as data "
                     "parallelism, with per-GPU memory falling toward 2Φ.",
            takeaway_zh="ZeRO-2 对梯度做 ReduceScatter 而不是 AllReduce：通信量与数据并行相同，每卡显存降向 2Φ。",
            example={"phi": 7e9, "n_dp": 8}, plain_expr="2*phi + 14*phi/n_dp",
            meaning_zh="ZeRO-2 下每张 GPU 的静态显存（切分优化器状态和梯度）", per_device=True),
    Formula("zero3_bytes", (PHI, N_DP, RECIPE), ZERO_RECIPE_EXPR[3], "bytes",
            "per-GPU static memory with ZeRO-3 / FSDP (everything sharded)", "C§1.2",
            (Misconception("zero1", "used the ZeRO-1 formula (4Φ + 12Φ/N)", "4*phi + 12*phi/n_dp",
                           "用成了 ZeRO-1 的公式（4Φ + 12Φ/N）"),
             Misconception("zero2", "used the ZeRO-2 formula (2Φ + 14Φ/N)", "2*phi + 14*phi/n_dp",
                           "用成了 ZeRO-2 的公式（2Φ + 14Φ/N）"),
             Misconception("unsharded", "did not shard anything (16Φ)", "16*phi", "什么都没有切分（16Φ）")), "M_ZeRO-3",
            refs="rajbhandari2020",
            decomposition=("ZeRO-3 (FSDP) shards everything: weights, gradients and optimizer states, 16Φ in all, split "
                           "N_dp ways: 16Φ/N_dp",),
            decomposition_zh=("ZeRO-3（FSDP）全部切分：权重、梯度、优化器状态共 16Φ，分成 N_dp 份：16Φ/N_dp",),
            parts=(Part("total", "16Φ", "16*phi", "bytes", "the whole training state", "全部训练状态"),),
            via="total/n_dp",
            simplification=("16Φ/N_dp keeps falling as GPUs are added: no replicated floor, unlike ZeRO-1 (4Φ) and "
                            "ZeRO-2 (2Φ)",),
            simplification_zh=("16Φ/N_dp 随 GPU 增多一直下降：不像 ZeRO-1（4Φ）和 ZeRO-2（2Φ）那样有复制的下限",),
            takeaway="ZeRO-3 trades communication for memory: 16Φ/N per GPU, but the weights are gathered twice per "
                     "step, 1.5× the traffic of data parallelism.",
            takeaway_zh="ZeRO-3 用通信换显存：每卡 16Φ/N，但每步要 AllGather 两次权重，通信量是数据并行的 1.5 倍。",
            example={"phi": 7e9, "n_dp": 8}, plain_expr="16*phi/n_dp",
            meaning_zh="ZeRO-3 / FSDP 下每张 GPU 的静态显存（全部切分）", per_device=True),
    Formula("weights_bytes", (PHI, BYTES_PER_PARAM, OVERHEAD),
            "phi*bytes_per_param*(1 + overhead)", "bytes",
            "memory taken by the weights alone (also the size of a full gradient: one value per parameter)",
            "C§4.2, C§1.1, C§2",
            (Misconception("fp32", "counted 4 B per parameter (fp32) instead of the given precision", "4*phi",
                           "按每参数 4 B（fp32）算了，而不是给定的精度"),
             Misconception("static_16", "used the whole static training state 16Φ (weights + gradients + AdamW)",
                           "16*phi", "用了全部静态训练状态 16Φ（权重 + 梯度 + AdamW）"),
             # an MoE problem gives its active parameters as an extra: memory holds every expert
             Misconception("active_only", "counted only the active parameters: every expert must be in memory",
                           "phi_active*bytes_per_param", "只算了激活参数：所有专家都得放在显存里")), "M_weights",

            refs="gpu_datasheets",
            decomposition=("one value per parameter: Φ × bytes per parameter (fp32 4 B, bf16/fp16 2 B, fp8/int8 1 B, "
                           "int4 0.5 B)",),
            decomposition_zh=("每个参数一个值：Φ × 每参数字节数（fp32 4 B，bf16/fp16 2 B，fp8/int8 1 B，int4 0.5 B）",),
            takeaway="weight memory is Φ × bytes: halving the precision halves it, and at decode it also halves the "
                     "bytes read per token.",
            takeaway_zh="权重显存 = Φ × 字节数：精度减半显存就减半，decode 时每个 token 要读的字节也减半。",
            example={"phi": 70e9, "bytes_per_param": 2}, plain_expr="phi*bytes_per_param",
            meaning_zh="仅权重占用的显存（也是一份完整梯度的大小：每个参数一个值）"),
    Formula("min_gpus", (TOTAL_BYTES, GPU_BYTES),
            "ceil(total_bytes/gpu_bytes)", "count", "fewest GPUs whose memory holds it (rounded up)",
            "C§1.1", (Misconception("rounded_down", "rounded down instead of up", "floor(total_bytes/gpu_bytes)",
                                    "向下取整了，应向上取整"),),
            "N_min",
            decomposition=("each GPU holds M_gpu; divide the total by one GPU's memory and round UP: a fraction of a "
                           "GPU is a whole GPU",),
            decomposition_zh=("每张 GPU 能放 M_gpu；总量除以单卡显存后向上取整：不足一张也得算一张",),
            parts=(Part("ratio", "M_total/M_gpu", "total_bytes/gpu_bytes", "count", "GPUs, before rounding",
                        "取整前的 GPU 数"),),
            takeaway="round up, and treat it as a floor: activations, buffers and fragmentation need more memory.",
            takeaway_zh="向上取整，而且这只是下限：激活、缓冲区和显存碎片还要更多空间。",
            example={"total_bytes": 1.12e12, "gpu_bytes": 80e9},
            meaning_zh="能装下它所需的最少 GPU 数（向上取整）"),
    Formula("activation_bytes_layer", (SEQ_LEN, MICRO_BATCH, HIDDEN, HEADS), "s*b*h*(34 + 5*a*s/h)", "bytes",
            "activation memory of one transformer layer, no recomputation (fp16)", "C§1.3",
            (Misconception("linear_only", "kept only the 34sbh term (dropped 5as²b)", "34*s*b*h",
                           "只保留了 34sbh 项（漏了 5as²b）"),
             Misconception("quadratic_only", "kept only the 5as²b attention term", "5*a*s*s*b", "只保留了注意力的 5as²b 项")),
            "M_act",
            refs="korthikanti2022",
            decomposition=("34sbh: the 2-byte tensors a layer keeps for backward that grow with h (attention 11sbh, "
                           "MLP 19sbh, the two norms 4sbh)",
                           "5as²b: the attention scores QKᵀ and their softmax (2 B each: 4as²b) plus the 1-byte dropout "
                           "mask (as²b); it grows with s²"),
            decomposition_zh=("34sbh：一层为反向保留的、随 h 增长的 2 字节张量（注意力 11sbh，MLP 19sbh，两个归一化 4sbh）",
                              "5as²b：注意力分数 QKᵀ 及其 softmax（各 2 B：4as²b）加 1 字节的 dropout 掩码（as²b）；"
                              "它随 s² 增长"),
            parts=(Part("linear", "34sbh", "34*s*b*h", "bytes", "grows with the hidden size", "随隐藏维度增长"),
                   Part("quad", "5as²b", "5*a*s*s*b", "bytes", "attention scores, grows with s²", "注意力分数，随 s² 增长")),
            via="linear + quad",
            takeaway="the 5as²b term grows with s²: at long sequences it dominates, which is why FlashAttention "
                     "(never storing the scores) and recomputation matter.",
            takeaway_zh="5as²b 项随 s² 增长：长序列时它占大头，所以要用 FlashAttention（不存注意力分数）和重计算。",
            example={"s": 2048, "b": 1, "h": 4096, "a": 32},
            meaning_zh="一个 Transformer 层的激活值显存，不做重计算（fp16）"),
    # Korthikanti et al.'s count redone for a Llama-style layer: the derivation is in SWIGLU_LAYER_MEANING.
    Formula("activation_bytes_layer_swiglu",
            (SEQ_LEN, MICRO_BATCH, HIDDEN, HEADS, N_KV, SWIGLU_FFN, MLP_SBF),
            "s*b*(12*h + 4*h*n_kv_heads/a + mlp_sbf*ffn) + 2*a*s*s*b", "bytes", SWIGLU_LAYER_MEANING,
            "korthikanti2022, touvron2023",  # §4.1's count redone for a Llama-style layer (SWIGLU_LAYER_MEANING)
            (Misconception("gpt_layer", "used the GPT-layer formula 34sbh + 5as²b (4h GELU MLP with dropout): this "
                           "layer has a SwiGLU MLP and no dropout", "s*b*h*(34 + 5*a*s/h)",
                           "用了 GPT 层的公式 34sbh + 5as²b（4h GELU MLP、带 dropout）：这一层是 SwiGLU MLP、没有 dropout"),
             Misconception("mha_kv", "stored K and V at the full width h; with grouped KV heads they are h·n_kv/a wide",
                           "s*b*(16*h + mlp_sbf*ffn) + 2*a*s*s*b",
                           "把 K、V 按完整宽度 h 算了；分组 KV 头时它们只有 h·n_kv/a 宽"),
             Misconception("linear_only", "left out the 2as²b attention-score term",
                           "s*b*(12*h + 4*h*n_kv_heads/a + mlp_sbf*ffn)", "漏了注意力分数的 2as²b 项")),
            "M_act",
            refs="korthikanti2022, touvron2023",
            decomposition=("attention keeps 6sbh + 4sb·h·n_kv/a: the QKV input, Q, K and V at their widths (K and V are "
                           "h·n_kv/a wide with grouped KV heads), the output-projection input; plus 2as²b of softmax "
                           "output",
                           "the SwiGLU MLP keeps 2sbh + 6sbf (its input, the gate and up outputs, the down-projection "
                           "input; the fused SwiGLU recomputes SiLU in the backward, eager PyTorch keeps its output "
                           "too: 8sbf); the two RMSNorm inputs 4sbh; all bf16, 2 B per value"),
            decomposition_zh=("注意力保留 6sbh + 4sb·h·n_kv/a：QKV 输入、按各自宽度的 Q、K、V（分组 KV 头时 K、V 宽 h·n_kv/a）、"
                              "输出投影的输入；再加 2as²b 的 softmax 输出",
                              "SwiGLU MLP 保留 2sbh + 6sbf（输入、gate 与 up 的输出、down 投影的输入；融合的 SwiGLU 在反向时"
                              "重算 SiLU，eager PyTorch 还保留其输出：8sbf）；两个 RMSNorm 的输入 4sbh；全部 bf16，每个值 2 B"),
            parts=(Part("linear", "sb(12h + 4h·n_kv/a + 6f)", "s*b*(12*h + 4*h*n_kv_heads/a + mlp_sbf*ffn)", "bytes",
                        "grows with the widths h and f", "随宽度 h 和 f 增长"),
                   Part("quad", "2as²b", "2*a*s*s*b", "bytes", "softmax output, grows with s²",
                        "softmax 输出，随 s² 增长")),
            via="linear + quad",
            takeaway="the 2as²b score term grows with s²: at long sequences it dominates, which is why FlashAttention "
                     "(never storing the scores) and recomputation matter.",
            takeaway_zh="2as²b 的注意力分数项随 s² 增长：长序列时它占大头，所以要用 FlashAttention（不存注意力分数）和重计算。",
            example={"s": 4096, "b": 1, "h": 4096, "a": 32, "n_kv_heads": 8, "ffn": 14336},
            meaning_zh="一个 Llama 式层的激活值显存（RMSNorm、中间维度 f 的 SwiGLU MLP、无 dropout、无偏置），bf16，不做重计算",
            plain_expr="s*b*(12*h + 4*h*n_kv_heads/a + 6*ffn) + 2*a*s*s*b"),
    Formula("activation_bytes_selective", (SEQ_LEN, MICRO_BATCH, HIDDEN), "34*s*b*h", "bytes",
            "activation memory per layer with selective recomputation (attention recomputed)", "C§1.3",
            (Misconception("full_recompute", "used full recomputation (2sbh)", "2*s*b*h",
                           "用成了完全重计算（2sbh）"),), "M_act_sel",
            refs="korthikanti2022",
            decomposition=("selective recomputation drops the 5as²b attention scores (big to store, cheap to recompute) "
                           "and keeps the 34sbh that grows with h",),
            decomposition_zh=("选择性重计算丢掉 5as²b 的注意力分数（存起来大，重算很便宜），保留随 h 增长的 34sbh",),
            takeaway="recomputing only attention removes the s² term for a few per cent more FLOPs: the default in "
                     "Megatron-LM.",
            takeaway_zh="只重算注意力部分，多花几个百分点的算力就去掉了 s² 项：Megatron-LM 的默认做法。",
            example={"s": 2048, "b": 1, "h": 4096},
            meaning_zh="选择性重计算（重算注意力）时每层的激活值显存"),
    Formula("activation_bytes_full_recompute", (SEQ_LEN, MICRO_BATCH, HIDDEN), "2*s*b*h", "bytes",
            "activation memory per layer with full recomputation (only the layer input kept)", "C§1.3",
            (Misconception("selective", "used selective recomputation (34sbh)", "34*s*b*h",
                           "用成了选择性重计算（34sbh）"),), "M_act_full",
            refs="korthikanti2022",
            decomposition=("full recomputation keeps only the layer's input, s·b·h values of 2 B each = 2sbh, and reruns "
                           "the layer's forward pass during backward",),
            decomposition_zh=("完全重计算只保留层的输入：s·b·h 个值、每个 2 B = 2sbh，反向时把这一层的前向重跑一遍",),
            takeaway="full recomputation cuts activations to 2sbh per layer but costs another forward pass: about a "
                     "third more compute (8Φ instead of 6Φ per token).",
            takeaway_zh="完全重计算把每层激活降到 2sbh，但要多跑一次前向：算力多约三分之一（每 token 8Φ 而非 6Φ）。",
            example={"s": 2048, "b": 1, "h": 4096},
            meaning_zh="完全重计算（只保留层输入）时每层的激活值显存"),
    Formula("whole_model_activation_bytes", (LAYERS, LAYER_ACT_BYTES),
            "layers*layer_bytes", "bytes", "activation memory of L identical layers from the per-layer figure",
            "C§1.3", (Misconception("one_layer", "gave one layer, not all L layers", "layer_bytes",
                                    "只给了一层，没有乘以 L 层"),
                      # when the problem gives s, b, h, a (extras), the per-layer slips show up L times over
                      # (GPT-style layers only: a Llama-style problem gives no extras, and the card says so)
                      Misconception("linear_only", "kept only a GPT-style layer's 34sbh term (dropped 5as²b)",
                                    "layers*34*s*b*h", "只保留了 GPT 式层的 34sbh 项（漏了 5as²b）"),
                      Misconception("quadratic_only", "kept only a GPT-style layer's 5as²b attention term",
                                    "layers*5*a*s*s*b", "只保留了 GPT 式层注意力的 5as²b 项")), "M_act_total",
            refs="korthikanti2022",
            decomposition=("the layers are identical: L × the activations of one layer",),
            decomposition_zh=("各层完全相同：L × 一层的激活值显存",),
            takeaway="activations scale with L, s and b: for long sequences they dwarf the weights, hence recomputation "
                     "and sequence parallelism.",
            takeaway_zh="激活值显存随 L、s、b 增长：长序列时远超权重，所以要重计算和序列并行。",
            example={"layers": 32, "layer_bytes": 2e9},
            meaning_zh="由每层激活算出 L 个相同层的激活值显存"),
)

# Optimizer state alone, by optimizer: what "AdamW vs 8-bit Adam vs Adafactor for a 70B fine-tune?" asks about.
register(
    Formula("optimizer_state_bytes", (PHI, OPTIMIZER), "phi*optimizer", "bytes",
            "memory of the optimizer states alone: Φ × the optimizer's state bytes per parameter (master weights and "
            "gradients not included)", "loshchilov2019, dettmers2022, deepseek_v3, lion2023, jordan2024",
            (Misconception("master_as_state", "counted the fp32 master weights as optimizer state",
                           "phi*optimizer + 4*phi", "把 fp32 主权重也算成了优化器状态"),
             Misconception("half_the_states", "counted one byte per parameter for both moments together (8-bit Adam "
                           "keeps m and v at 1 B each: 2 B, not 1)", "phi*optimizer/2",
                           "把两个矩合起来算成了每参数 1 字节（8 位 Adam 的 m 和 v 各 1 B：共 2 B，不是 1 B）")),
            "M_opt",
            decomposition=("states per parameter × bytes each: AdamW m and v in fp32 8 B, in bf16 4 B (DeepSeek-V3), "
                           "8-bit 2 B; SGD momentum, Lion and Muon one fp32 buffer, 4 B. The Lion and Muon sizes are "
                           "the common description (one buffer), not verified against a primary source",),
            decomposition_zh=("每参数的状态个数 × 每个的字节数：AdamW 的 m、v 用 fp32 是 8 B，用 bf16 是 4 B（DeepSeek-V3），"
                              "8 位是 2 B；带动量的 SGD、Lion、Muon 各一个 fp32 缓冲区，4 B。Lion 和 Muon 的大小按通常的描述"
                              "（一个缓冲区），未对照一手来源核实",),
            simplification=("the fp32 master weights (4Φ) and the gradients are not optimizer state: 8-bit Adam "
                            "shrinks the states from 8Φ to 2Φ, and the whole training state from 16Φ to 10Φ",),
            simplification_zh=("fp32 主权重（4Φ）和梯度不属于优化器状态：8 位 Adam 把优化器状态从 8Φ 降到 2Φ，"
                               "训练状态总量则从 16Φ 降到 10Φ",),
            takeaway="{phi} parameters keep {result} of optimizer state: the optimizer, not the weights, is where a "
                     "fine-tune's memory goes, and 8-bit or one-buffer optimizers cut it by 2-4×.",
            takeaway_zh="{phi} 个参数的优化器状态是 {result}：微调的显存主要花在优化器上，而不是权重上；8 位或单缓冲区的"
                        "优化器能把它减少 2-4 倍。",
            example={"phi": 70e9, "optimizer": 8},
            meaning_zh="优化器状态本身占的显存：Φ × 该优化器每个参数的状态字节数（不含主权重和梯度）"),
    Formula("adafactor_state_elems", (MATRIX_ROWS, MATRIX_COLS), "rows + cols", "count",
            "values Adafactor keeps for one rows × cols weight matrix: the second moment factored into its row and "
            "column sums, and no first moment (β1 = 0 by default); Adam keeps 2 × rows × cols", "shazeer2018",
            (Misconception("first_moment", "kept Adam's first moment as well (a full rows × cols matrix)",
                           "rows + cols + rows*cols", "还保留了 Adam 的一阶矩（一个完整的 rows × cols 矩阵）"),
             Misconception("unfactored", "kept the second moment as a full rows × cols matrix, not factored",
                           "rows*cols", "把二阶矩按完整的 rows × cols 矩阵保存，没有分解")),
            "n_state",
            decomposition=("Adafactor estimates the second moment of an n × m matrix as the outer product of a row "
                           "vector (n values) and a column vector (m values); with β1 = 0 it keeps no momentum. "
                           "β1 = 0 as the default is from the paper as commonly described, not re-verified",),
            decomposition_zh=("Adafactor 把 n × m 矩阵的二阶矩估计为一个行向量（n 个值）和一个列向量（m 个值）的外积；"
                              "β1 = 0 时不保存动量。β1 默认为 0 出自论文的通常描述，未重新核实",),
            parts=(Part("adam", "2 n m", "2*rows*cols", "count", "what Adam keeps for the same matrix (m and v)",
                        "同一矩阵 Adam 要保存的值（m 和 v）"),),
            simplification=("for an 8,192 × 8,192 matrix: 16,384 values instead of 134 million, a saving of n·m / "
                            "(n + m) ≈ 4,096× per matrix",),
            simplification_zh=("8,192 × 8,192 的矩阵：16,384 个值，而不是 1.34 亿个，每个矩阵省下 n·m / (n + m) ≈ 4,096 倍",),
            takeaway="Adafactor keeps {result} values where Adam keeps {adam}: factoring the second moment makes "
                     "optimizer memory sub-linear in the parameters, at some cost in stability.",
            takeaway_zh="Adafactor 保存 {result} 个值，而 Adam 要保存 {adam} 个：把二阶矩分解后，优化器显存随参数量亚线性"
                        "增长，代价是稳定性差一些。",
            example={"rows": 8192, "cols": 8192},
            meaning_zh="Adafactor 为一个 rows × cols 权重矩阵保存的值的个数：二阶矩分解成行和与列和，且没有一阶矩"
                       "（默认 β1 = 0）；Adam 要保存 2 × rows × cols 个"),
)
