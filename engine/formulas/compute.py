"""Training compute: FLOPs per token (6Φ and attention), model and hardware FLOPs utilisation, the
time of a run, parameter counts, and the Chinchilla compute-optimal rules.

The seeds' module 3 (C§3) plus the standard warm-ups (a model's parameter count, Hoffmann et al.'s
20 tokens per parameter): everything that turns FLOPs into GPU time.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part, Requirement
from .inputs import (
    COMPUTE,
    FFN,
    FLOPS_PER_PARAM_TOKEN,
    GLOBAL_BATCH_SEQS,
    GRAD_ACCUM,
    HEAD_DIM,
    HEADS,
    HIDDEN,
    LAYERS,
    LOSS_FIT,
    MFU,
    MICRO_BATCH,
    N_DP,
    N_GPUS,
    N_HEADS,
    N_KV,
    PEAK,
    PHI,
    SEQ_LEN,
    STEP_TIME,
    TOKENS,
    TOKENS_PER_PARAM,
    TRAIN_TPS,
    TRAIN_WALL_TIME,
    VOCAB,
)
from .registry import register

NO_MFU = ("assumed 100% utilisation (left out MFU)", "假设了 100% 利用率（漏了 MFU）")


register(
    Formula("train_flops_per_token", (PHI, LAYERS.as_("l", "L"), HEADS, SEQ_LEN, HEAD_DIM.as_("h_head", "h_head")),
            "6*phi + 12*l*a*s*h_head", "flop", "training FLOPs per token, attention term included", "C§3.1",
            (Misconception("no_attention", "dropped the attention term 12·L·a·s·h_head", "6*phi",
                           "漏了注意力项 12·L·a·s·h_head"),
             Misconception("forward_only", "counted only the forward pass (2Φ + 4·L·a·s·h_head)",
                           "2*phi + 4*l*a*s*h_head", "只算了前向（2Φ + 4·L·a·s·h_head）")), "FLOPs/token",
            refs="kaplan2020, narayanan2021",
            decomposition=("6Φ: each parameter does one multiply-add (2 FLOPs) per token forward and two backward "
                           "(4 FLOPs): 2Φ + 4Φ",
                           "12·L·a·s·h_head: attention scores QKᵀ and the weighted sum of V, 2·2·s·h_head FLOPs per "
                           "head and layer forward, ×3 with backward"),
            decomposition_zh=("6Φ：每个参数每个 token 前向做一次乘加（2 FLOPs），反向两次（4 FLOPs）：2Φ + 4Φ",
                              "12·L·a·s·h_head：注意力分数 QKᵀ 和对 V 的加权求和，前向每层每头 2·2·s·h_head FLOPs，"
                              "加上反向 ×3"),
            parts=(Part("dense", "6Φ", "6*phi", "flop", "the parameters: 2Φ forward + 4Φ backward",
                        "参数部分：前向 2Φ + 反向 4Φ"),
                   Part("attn", "12·L·a·s·h_head", "12*l*a*s*h_head", "flop", "attention scores and weighted V",
                        "注意力分数与 V 的加权")),
            via="dense + attn",
            takeaway="6Φ per token is the rule of thumb; the attention term matters once the sequence length is "
                     "comparable with the model width.",
            takeaway_zh="每 token 6Φ 是经验公式；当序列长度和隐藏维度相当时，注意力项就不能忽略了。",
            example={"phi": 7e9, "l": 32, "a": 32, "s": 4096, "h_head": 128},
            meaning_zh="训练时每个 token 的 FLOPs（含注意力项）"),
    Formula("forward_flops_per_token", (PHI,), "2*phi", "flop", "forward-pass FLOPs per token", "C§3.1",
            (Misconception("training", "used the training figure 6Φ", "6*phi", "用成了训练的 6Φ"),
             # an MoE problem gives its total parameters as an extra: a token only uses its top-k experts
             Misconception("total_params", "used the total parameters: a token only passes through its top-k experts",
                           "2*phi_total", "用了总参数量：一个 token 只经过它的 top-k 个专家")), "FLOPs/token",

            refs="kaplan2020",
            decomposition=("each parameter is one multiply-add per token in the forward pass: 2 FLOPs × Φ",),
            decomposition_zh=("前向时每个参数对每个 token 做一次乘加：2 FLOPs × Φ",),
            takeaway="a forward pass costs 2Φ FLOPs per token, a third of training's 6Φ: inference budgets start here.",
            takeaway_zh="前向每个 token 2Φ FLOPs，是训练 6Φ 的三分之一：推理的算力预算从这里算起。",
            example={"phi": 7e9},
            meaning_zh="前向每个 token 的 FLOPs"),
    Formula("mfu", (TRAIN_TPS, PHI, N_GPUS, PEAK), "tokens_per_s*6*phi/(n_gpus*peak_flops)", "ratio",
            "model FLOPs utilisation (6Φ per token, recomputation not counted)", "C§3.2",
            (Misconception("forward_only", "used 2Φ (forward only) instead of 6Φ",
                           "tokens_per_s*2*phi/(n_gpus*peak_flops)", "用了 2Φ（只算前向），应为 6Φ"),
             Misconception("hfu", "counted recomputation (8Φ): that is HFU",
                           "tokens_per_s*8*phi/(n_gpus*peak_flops)", "把重计算也算进去了（8Φ）：那是 HFU"),
             Misconception("one_gpu", "forgot to divide by the number of GPUs",
                           "tokens_per_s*6*phi/peak_flops", "忘了除以 GPU 数")), "MFU",
            refs="chowdhery2022",
            decomposition=("useful model FLOP/s = tokens/s × 6Φ (forward + backward, recomputation not counted); "
                           "available = N GPUs × peak",),
            decomposition_zh=("有效模型算力 = tokens/s × 6Φ（前向 + 反向，不算重计算）；可用算力 = N 张 GPU × 峰值",),
            parts=(Part("achieved", "tok/s·6Φ", "tokens_per_s*6*phi", "flop_rate", "model FLOP/s achieved",
                        "实际达到的模型算力"),
                   Part("avail", "N·F_peak", "n_gpus*peak_flops", "flop_rate", "peak of all the GPUs", "全部 GPU 的峰值")),
            via="achieved/avail",
            takeaway="MFU counts only the model's useful FLOPs: published large dense runs reach 35-55 % (PaLM 46 %); far below, "
                     "look for communication, pipeline bubbles or small kernels.",
            takeaway_zh="MFU 只算模型的有效 FLOPs：公开的大规模稠密训练约 35-55 %（PaLM 46 %）；远低于此就去查通信、流水线气泡或小算子。",
            example={"tokens_per_s": 1e6, "phi": 7e9, "n_gpus": 128, "peak_flops": 1000e12},
            meaning_zh="模型算力利用率（每 token 6Φ，不算重计算）"),
    Formula("hfu", (TRAIN_TPS, PHI, N_GPUS, PEAK), "tokens_per_s*8*phi/(n_gpus*peak_flops)", "ratio",
            "hardware FLOPs utilisation with full recomputation (8Φ per token)", "C§3.2",
            (Misconception("mfu", "used 6Φ: that is MFU, recomputation not counted",
                           "tokens_per_s*6*phi/(n_gpus*peak_flops)", "用了 6Φ：那是 MFU，不算重计算"),), "HFU",
            refs="chowdhery2022",
            decomposition=("with full recomputation the forward pass runs twice: 2Φ + 2Φ (recomputed) + 4Φ backward = "
                           "8Φ per token executed by the hardware",),
            decomposition_zh=("完全重计算时前向跑两遍：2Φ + 2Φ（重算）+ 4Φ 反向 = 硬件每 token 执行 8Φ",),
            parts=(Part("achieved", "tok/s·8Φ", "tokens_per_s*8*phi", "flop_rate", "FLOP/s the hardware executes",
                        "硬件实际执行的算力"),
                   Part("avail", "N·F_peak", "n_gpus*peak_flops", "flop_rate", "peak of all the GPUs", "全部 GPU 的峰值")),
            via="achieved/avail",
            takeaway="HFU ≥ MFU: recomputation keeps the hardware busy without advancing the model, so compare "
                     "systems by MFU.",
            takeaway_zh="HFU ≥ MFU：重计算让硬件忙着却不推进模型训练，所以比较不同系统要看 MFU。",
            example={"tokens_per_s": 1e6, "phi": 7e9, "n_gpus": 128, "peak_flops": 1000e12},
            meaning_zh="完全重计算时的硬件算力利用率（每 token 8Φ）"),
    Formula("train_flops", (PHI, TOKENS, FLOPS_PER_PARAM_TOKEN), "flops_per_param_token*phi*tokens", "flop",
            "total training FLOPs (6ΦD)", "C§3.1",
            (Misconception("forward_only", "used 2ΦD (forward only)", "2*phi*tokens", "用了 2ΦD（只算前向）"),), "C",
            refs="kaplan2020",
            decomposition=("6Φ FLOPs per token (2Φ forward + 4Φ backward) × D training tokens",),
            decomposition_zh=("每 token 6Φ FLOPs（前向 2Φ + 反向 4Φ）× D 个训练 token",),
            takeaway="C = 6ΦD is the budget of a training run; divide it by N × peak × MFU to get the wall-clock time.",
            takeaway_zh="C = 6ΦD 是一次训练的算力预算；除以 N × 峰值 × MFU 就是训练时间。",
            example={"phi": 7e9, "tokens": 1e12}, plain_expr="6*phi*tokens",
            meaning_zh="训练总 FLOPs（6ΦD）"),
    Formula("train_time", (PHI, TOKENS, N_GPUS, PEAK, MFU, FLOPS_PER_PARAM_TOKEN),
            "flops_per_param_token*phi*tokens/(n_gpus*peak_flops*mfu)", "time", "wall-clock training time at a given MFU", "C§3",
            (Misconception("no_mfu", "assumed 100% utilisation (left out MFU)", "6*phi*tokens/(n_gpus*peak_flops)",
                           "假设了 100% 利用率（漏了 MFU）"),
             Misconception("forward_only", "used 2ΦD instead of 6ΦD", "2*phi*tokens/(n_gpus*peak_flops*mfu)",
                           "用了 2ΦD，应为 6ΦD"),
             # 8Φ is a convention for hardware FLOPs (train_flops), never with an MFU
             Misconception("recompute_twice", "used 8ΦD (hardware FLOPs with recompute) with an MFU: MFU counts 6Φ by "
                           "definition, so the recompute is counted twice", "8*phi*tokens/(n_gpus*peak_flops*mfu)",
                           "在 MFU 上用了 8ΦD（含重计算的硬件 FLOPs）：MFU 按定义只算 6Φ，重计算被算了两次")),
            "T",
            refs="kaplan2020, chowdhery2022",
            decomposition=("time = work ÷ rate: 6ΦD FLOPs over N GPUs × peak × MFU",),
            decomposition_zh=("时间 = 工作量 ÷ 速率：6ΦD FLOPs 除以 N 张 GPU × 峰值 × MFU",),
            parts=(Part("work", "6ΦD", "6*phi*tokens", "flop", "total training FLOPs", "训练总 FLOPs"),
                   Part("rate", "N·F_peak·MFU", "n_gpus*peak_flops*mfu", "flop_rate", "sustained FLOP/s of the cluster",
                        "集群实际持续算力")),
            via="work/rate",
            takeaway="training time is 6ΦD / (N · peak · MFU): raising MFU from 30 % to 45 % is worth as much as 50 % "
                     "more GPUs.",
            takeaway_zh="训练时间 = 6ΦD / (N · 峰值 · MFU)：MFU 从 30 % 提到 45 %，相当于多加 50 % 的 GPU。",
            example={"phi": 7e9, "tokens": 1e12, "n_gpus": 128, "peak_flops": 1000e12, "mfu": 0.4},
            plain_expr="6*phi*tokens/(n_gpus*peak_flops*mfu)",
            meaning_zh="给定 MFU 时的训练时间"),
    Formula("mfu_from_step_time", (PHI, GLOBAL_BATCH_SEQS, SEQ_LEN, STEP_TIME, N_GPUS, PEAK),
            "6*phi*global_batch*s/(step_time*n_gpus*peak_flops)", "ratio",
            "MFU from a step time: tokens per step B_global·s over T_step gives tokens/s, times 6Φ over N × peak",
            "C§3.2",
            (Misconception("forward_only", "used 2Φ (forward only) instead of 6Φ",
                           "2*phi*global_batch*s/(step_time*n_gpus*peak_flops)", "用了 2Φ（只算前向），应为 6Φ"),
             Misconception("hfu", "counted recomputation (8Φ): that is HFU",
                           "8*phi*global_batch*s/(step_time*n_gpus*peak_flops)", "把重计算也算进去了（8Φ）：那是 HFU"),
             Misconception("sequences", "counted sequences, not tokens (forgot × s)",
                           "6*phi*global_batch/(step_time*n_gpus*peak_flops)", "算的是序列数，不是 token 数（漏了 × s）"),
             Misconception("one_gpu", "forgot to divide by the number of GPUs",
                           "6*phi*global_batch*s/(step_time*peak_flops)", "忘了除以 GPU 数")), "MFU",
            refs="chowdhery2022",
            decomposition=("tokens per second = B_global · s / T_step; useful FLOP/s = tokens/s × 6Φ; divide by N × peak",),
            decomposition_zh=("每秒 token 数 = B_global · s / T_step；有效算力 = tokens/s × 6Φ；再除以 N × 峰值",),
            parts=(Part("tps", "tok/s", "global_batch*s/step_time", "tok_rate", "tokens per second", "每秒 token 数"),
                   Part("achieved", "tok/s·6Φ", "6*phi*tps", "flop_rate", "model FLOP/s achieved", "实际达到的模型算力"),
                   Part("avail", "N·F_peak", "n_gpus*peak_flops", "flop_rate", "peak of all the GPUs", "全部 GPU 的峰值")),
            via="achieved/avail",
            takeaway="MFU from a step time is the number to quote for a training run: published large dense runs reach "
                     "35-55 %.",
            takeaway_zh="由单步耗时算出的 MFU 是衡量一次训练的标准指标：公开的大规模稠密训练约 35-55 %。",
            example={"phi": 7e9, "global_batch": 512, "s": 4096, "step_time": 10, "n_gpus": 128,
                     "peak_flops": 1000e12},
            meaning_zh="由单步耗时求 MFU：每步 token 数 B_global·s 除以 T_step 得 tokens/s，乘 6Φ 再除以 N × 峰值"),
    Formula("compute_budget", (N_GPUS, PEAK, MFU, TRAIN_WALL_TIME),
            "n_gpus*peak_flops*mfu*time", "flop",
            "training compute a cluster delivers: GPUs × dense peak × MFU × time",
            "beyond the seeds (standard planning arithmetic)",
            (Misconception("no_mfu_budget", NO_MFU[0], "n_gpus*peak_flops*time", NO_MFU[1]),), "C",
            refs="chowdhery2022, hoffmann2022",
            decomposition=("work = rate × time: N GPUs × peak × MFU is the useful FLOP/s the cluster sustains, "
                           "× the seconds of training",),
            decomposition_zh=("工作量 = 速率 × 时间：N 张 GPU × 峰值 × MFU 是集群持续提供的有效算力，再乘以训练的秒数",),
            parts=(Part("rate", "N·F_peak·MFU", "n_gpus*peak_flops*mfu", "flop_rate", "useful FLOP/s of the cluster",
                        "集群的有效算力"),),
            via="rate*time",
            takeaway="C = N · peak · MFU · T is where sizing a run starts: the MFU you assume moves the budget as much "
                     "as the number of GPUs.",
            takeaway_zh="C = N · 峰值 · MFU · T 是规划一次训练的起点：假设的 MFU 对预算的影响和卡数一样大。",
            example={"n_gpus": 1024, "peak_flops": 1000e12, "mfu": 0.4, "time": 30 * 86400},
            meaning_zh="集群能提供的训练算力：GPU 数 × 稠密峰值 × MFU × 时间"),
    Formula("param_count", (LAYERS, HIDDEN.as_("d_model", "d"), N_HEADS, N_KV, HEAD_DIM, FFN, VOCAB),
            "layers*(d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model"
            " + 3*d_model*ffn) + 2*vocab*d_model", "count",
            "parameters of a Llama-style decoder (gated MLP, untied embeddings, norms ignored)",
            "beyond the seeds (standard warm-up)",
            (Misconception("mha_kv", "gave K and V as many heads as Q (ignored GQA)",
                           "layers*(4*d_model*n_heads*d_head + 3*d_model*ffn) + 2*vocab*d_model",
                           "让 K、V 的头数和 Q 一样（忽略了 GQA）"),
             Misconception("two_matrix_mlp", "used a 2-matrix MLP instead of the gated 3-matrix one",
                           "layers*(d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model"
                           " + 2*d_model*ffn) + 2*vocab*d_model", "用了 2 个矩阵的 MLP，而不是带门控的 3 矩阵 MLP"),
             Misconception("no_embeddings", "left out the embedding and output matrices",
                           "layers*(d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model"
                           " + 3*d_model*ffn)", "漏了词嵌入和输出层矩阵")), "Φ",
            refs="touvron2023, ainslie2023",
            decomposition=("per layer: attention Q (d·n_h·d_head), K and V (2·d·n_kv·d_head), output (n_h·d_head·d); "
                           "gated MLP 3·d·d_ffn (gate, up, down); plus embedding and output matrices 2·V·d",),
            decomposition_zh=("每层：注意力 Q（d·n_h·d_head）、K 和 V（2·d·n_kv·d_head）、输出投影（n_h·d_head·d）；"
                              "带门控的 MLP 3·d·d_ffn（gate、up、down）；再加词嵌入和输出层矩阵 2·V·d",),
            parts=(Part("attn", "P_attn", "d_model*n_heads*d_head + 2*d_model*n_kv_heads*d_head + n_heads*d_head*d_model",
                        "count", "attention weights of one layer", "一层的注意力权重"),
                   Part("mlp", "P_mlp", "3*d_model*ffn", "count", "MLP weights of one layer", "一层的 MLP 权重"),
                   Part("emb", "P_emb", "2*vocab*d_model", "count", "embedding and output matrices",
                        "词嵌入和输出层矩阵")),
            via="layers*(attn + mlp) + emb",
            takeaway="most parameters sit in the MLP (3·d·d_ffn per layer); GQA shrinks only K and V.",
            takeaway_zh="大部分参数在 MLP 里（每层 3·d·d_ffn）；GQA 只缩小了 K 和 V。",
            example={"layers": 32, "d_model": 4096, "n_heads": 32, "n_kv_heads": 8, "d_head": 128, "ffn": 14336,
                     "vocab": 128000},
            meaning_zh="Llama 式解码器的参数量（门控 MLP，不共享词嵌入，忽略归一化层）"),
    Formula("param_count_approx", (LAYERS, HIDDEN.as_("d_model", "h")), "12*layers*d_model^2",
            "count",
            "rule-of-thumb parameter count of a transformer: 12·L·h² (4h² attention + 8h² for a 4h MLP per layer; "
            "embeddings, biases and norms ignored)",
            "kaplan2020",
            (Misconception("attention_only", "counted only the attention matrices (4h² per layer)", "4*layers*d_model^2",
                           "只算了注意力的矩阵（每层 4h²）"),
             Misconception("one_layer_params", "counted one layer, not all of them", "12*d_model^2",
                           "只算了一层，没有乘以层数")), "Φ_approx",
            decomposition=("per layer: attention has four h × h matrices (Q, K, V and the output projection) = 4h²; "
                           "the MLP has h × 4h up and 4h × h down = 8h²",
                           "12h² per layer × L layers; embeddings, biases and norms are left out"),
            decomposition_zh=("每层：注意力有 Q、K、V 和输出投影四个 h × h 矩阵 = 4h²；MLP 有 h × 4h 的升维和 4h × h "
                              "的降维 = 8h²",
                              "每层 12h² × L 层；忽略词嵌入、偏置和归一化层"),
            parts=(Part("attn", "4h²", "4*d_model^2", "count", "attention Q, K, V, O of one layer",
                        "一层注意力的 Q、K、V、O"),
                   Part("mlp", "8h²", "8*d_model^2", "count", "MLP up and down projections of one layer",
                        "一层 MLP 的升维和降维"),),
            via="layers*(attn + mlp)",
            simplification=("a Llama-style layer differs (GQA shrinks K and V, a SwiGLU MLP is 3·h·d_ffn with "
                            "d_ffn ≈ 3.5h): its layers land within roughly 10 % of 12·L·h², and the embeddings 2·V·h "
                            "come on top",),
            simplification_zh=("Llama 式的层有所不同（GQA 缩小了 K 和 V，SwiGLU MLP 为 3·h·d_ffn，d_ffn ≈ 3.5h）："
                               "各层参数与 12·L·h² 相差约 10 % 以内，另外还要加上词嵌入的 2·V·h",),
            takeaway="12·L·h² is the ten-second size check: parameters grow linearly with depth but with the square "
                     "of the width.",
            takeaway_zh="12·L·h² 是十秒钟的规模估算：参数量随层数线性增长，随宽度按平方增长。",
            example={"layers": 32, "d_model": 4096},
            meaning_zh="Transformer 参数量的经验公式：12·L·h²（每层注意力 4h² + 4h 宽 MLP 的 8h²；"
                       "忽略词嵌入、偏置和归一化层）"),
    Formula("chinchilla_tokens", (PHI, TOKENS_PER_PARAM), "tokens_per_param*phi", "count",
            "compute-optimal training tokens for a model of Φ parameters (about 20 tokens per parameter)",
            "hoffmann2022",
            (Misconception("flops_per_token", "used 6 tokens per parameter (that is 6Φ, the FLOPs per token)",
                           "6*phi", "每个参数用了 6 个 token（6Φ 是每个 token 的 FLOPs）"),), "D_opt",
            decomposition=("Hoffmann et al. trained over 400 models at fixed compute budgets: the loss is lowest when "
                           "parameters and tokens grow together, at about 20 training tokens per parameter",),
            decomposition_zh=("Hoffmann 等在固定算力预算下训练了 400 多个模型：参数量和 token 数同步增长时损失最低，"
                              "最优点约为每个参数 20 个训练 token",),
            simplification=("such a run costs C = 6·Φ·D = 6·Φ·20Φ = 120·Φ² FLOPs",),
            simplification_zh=("这样一次训练的算力为 C = 6·Φ·D = 6·Φ·20Φ = 120·Φ² FLOPs",),
            takeaway="compute-optimal is about 20 tokens per parameter; models meant to be served are trained far "
                     "beyond it (Llama 3 8B saw 15T tokens), because a smaller model is cheaper at inference.",
            takeaway_zh="计算最优约为每个参数 20 个 token；要上线服务的模型会远超这个比例（Llama 3 8B 训练了 15T token），"
                        "因为小模型推理更便宜。",
            example={"phi": 7e10}, plain_expr="20*phi",
            meaning_zh="Φ 个参数的模型计算最优的训练 token 数（约每个参数 20 个 token）"),
    Formula("chinchilla_params", (COMPUTE, TOKENS_PER_PARAM),
            "(compute/(6*tokens_per_param))^0.5", "count",
            "compute-optimal parameter count for a budget C: C = 6·N·D with D = 20·N gives N = √(C/120)",
            "hoffmann2022",
            (Misconception("no_token_ratio", "used D = N (forgot the 20 tokens per parameter): √(C/6)",
                           "(compute/6)^0.5", "用了 D = N（漏了每参数 20 个 token）：√(C/6)"),
             Misconception("no_sqrt", "forgot the square root (C = 120·N², not 120·N)", "compute/120",
                           "忘了开平方（C = 120·N²，不是 120·N）"),
             Misconception("forward_only_chinchilla", "used C = 2·N·D (forward only): √(C/40)",
                           "(compute/40)^0.5", "用了 C = 2·N·D（只算前向）：√(C/40)")), "N_opt",
            refs="kaplan2020",
            decomposition=("training costs C = 6·N·D FLOPs (6 per parameter per token) and the compute-optimal data is "
                           "D = 20·N: C = 6·N·20N = 120·N², so N = √(C/120)",),
            decomposition_zh=("训练算力 C = 6·N·D FLOPs（每个参数每个 token 6 次），计算最优的数据量 D = 20·N："
                              "C = 6·N·20N = 120·N²，所以 N = √(C/120)",),
            parts=(Part("n_sq", "N²", "compute/120", "count", "C / 120", "C / 120"),),
            via="n_sq^0.5",
            simplification=("the tokens follow as D = 20·N: both grow as √C, so 10× the compute buys about 3.2× the "
                            "parameters and 3.2× the tokens",),
            simplification_zh=("token 数随之为 D = 20·N：两者都随 √C 增长，算力翻 10 倍，参数量和 token 数各约变为原来的 3.2 倍",),
            takeaway="at the Chinchilla optimum parameters and tokens both scale as √C: spend extra compute on data as "
                     "much as on model size.",
            takeaway_zh="在 Chinchilla 最优点，参数量和 token 数都随 √C 增长：多出的算力要同样花在数据上，而不只是加大模型。",
            example={"compute": 5.88e23}, plain_expr="(compute/120)^0.5",
            meaning_zh="给定算力预算 C 时计算最优的参数量：C = 6·N·D 且 D = 20·N，得 N = √(C/120)"),
    # The loss fit's own optimum (Hoffmann et al. eq. 4): minimising E + A/N^α + B/D^β along C = 6·N·D gives
    # N_opt = G·(C/6)^(β/(α+β)) with G = (αA/(βB))^(1/(α+β)); approach 3's constants put it near 100 tokens per
    # parameter at today's budgets, Besiroglu et al.'s refit near 20.
    Formula("fit_optimal_params", (COMPUTE, LOSS_FIT),
            "fit*(0.34*406.4/(0.28*410.7))^(1/0.62)*(compute/6)^(0.28/0.62)"
            " + (1 - fit)*(0.3478*482.01/(0.3658*2085.43))^(1/0.7136)*(compute/6)^(0.3658/0.7136)", "count",
            "the parameter count that minimises the loss fit L = E + A/N^α + B/D^β at compute C = 6·N·D: "
            "N_opt = G·(C/6)^(β/(α+β)), G = (αA/(βB))^(1/(α+β))", "hoffmann2022, besiroglu2024",
            (Misconception("rule_of_thumb", "used the 20-tokens-per-parameter rule (√(C/120)), not the fit's own optimum",
                           "(compute/120)^0.5", "用了每参数 20 个 token 的经验值（√(C/120)），而不是该拟合自己的最优点"),), "N_opt",
            decomposition=("along a fixed compute C = 6·N·D the loss E + A/N^α + B/D^β is lowest where its two terms "
                           "trade evenly, αA/N^α = βB/D^β: N_opt = G·(C/6)^(β/(α+β)) with G = (αA/(βB))^(1/(α+β)) "
                           "(Hoffmann et al. eq. 4), and D_opt = C/(6·N_opt)",),
            decomposition_zh=("在固定算力 C = 6·N·D 上，损失 E + A/N^α + B/D^β 在两项此消彼长相平衡处最低，即 αA/N^α = βB/D^β："
                              "N_opt = G·(C/6)^(β/(α+β))，G = (αA/(βB))^(1/(α+β))（Hoffmann 等式 4），D_opt = C/(6·N_opt)",),
            takeaway="a fit's compute-optimal model is where its own loss is lowest at that compute: approach 3's "
                     "constants put it far above the rule of thumb's 20 tokens per parameter.",
            takeaway_zh="一个拟合的计算最优模型，就是在该算力下它自己的损失最低之处：方法 3 的常数把它放在远高于经验值"
                        "每参数 20 个 token 的地方。",
            example={"compute": 5.88e23},
            meaning_zh="在算力 C = 6·N·D 下使损失拟合 L = E + A/N^α + B/D^β 最小的参数量：N_opt = G·(C/6)^(β/(α+β))，"
                       "G = (αA/(βB))^(1/(α+β))",
            plain_expr="(0.34*406.4/(0.28*410.7))^(1/0.62)*(compute/6)^(0.28/0.62)"),
    # ---------------------------------------------------------- the loss law and batch bookkeeping
    Formula("chinchilla_loss", (PHI, TOKENS), "1.69 + 406.4/phi^0.34 + 410.7/tokens^0.28", "nats",
            "pre-training loss predicted by Chinchilla's fit: L(N, D) = E + A/N^α + B/D^β (approach 3)", "hoffmann2022",
            (Misconception("no_floor", "left out the irreducible loss E = 1.69 nats", "406.4/phi^0.34 + 410.7/tokens^0.28",
                           "漏了不可约损失 E = 1.69 nat"),),
            "L",
            decomposition=("E = 1.69 nats is the entropy of text no model removes; A/N^0.34 is what a finite model misses, "
                           "B/D^0.28 what finite data misses (Hoffmann et al.'s approach 3 fit)",),
            decomposition_zh=("E = 1.69 nat 是任何模型都去不掉的文本熵；A/N^0.34 是模型有限带来的损失，B/D^0.28 是数据有限带来的"
                              "损失（Hoffmann 等方法 3 的拟合）",),
            parts=(Part("model_term", "A/N^α", "406.4/phi^0.34", "nats", "loss from the finite model", "模型有限带来的损失"),
                   Part("data_term", "B/D^β", "410.7/tokens^0.28", "nats", "loss from the finite data", "数据有限带来的损失")),
            via="1.69 + model_term + data_term",
            takeaway="over-training a small model past 20 tokens per parameter still lowers the data term, slowly: it "
                     "buys a cheaper model to serve at the same loss, paid in training compute.",
            takeaway_zh="小模型超过每参数 20 个 token 继续训练，数据项仍会下降，只是很慢：用训练算力换来同样损失下更便宜的推理模型。",
            example={"phi": 70e9, "tokens": 1.4e12},
            meaning_zh="Chinchilla 拟合预测的预训练损失：L(N, D) = E + A/N^α + B/D^β（方法 3）"),
    Formula("global_batch_tokens", (MICRO_BATCH.as_("micro_batch", "b_micro"), GRAD_ACCUM, N_DP, SEQ_LEN.as_("seq", "S")),
            "micro_batch*grad_accum*n_dp*seq", "count",
            "tokens per optimizer step: micro-batch × accumulation steps × data-parallel replicas × sequence length",
            "shoeybi2019, narayanan2021",
            (Misconception("no_accum", "left out gradient accumulation", "micro_batch*n_dp*seq", "漏了梯度累积"),
             Misconception("sequences", "counted sequences, not tokens (left out the sequence length)",
                           "micro_batch*grad_accum*n_dp", "算的是序列数而不是 token 数（漏了序列长度）")),
            "B_tokens",
            decomposition=("each replica runs k_acc micro-batches of b_micro sequences before the optimizer step, and "
                           "N_dp replicas do so at once; each sequence is S tokens",),
            decomposition_zh=("每个副本在优化器步之前跑 k_acc 个微批次、每个 b_micro 条序列，N_dp 个副本同时进行；每条序列 S 个 token",),
            parts=(Part("seqs", "B_seq", "micro_batch*grad_accum*n_dp", "count", "sequences per optimizer step",
                        "每个优化器步的序列数"),),
            via="seqs*seq",
            takeaway="the global batch is a training hyper-parameter (Llama 3: 16M tokens); tensor and pipeline "
                     "parallelism leave it unchanged, data parallelism and accumulation make it up.",
            takeaway_zh="全局批大小是训练超参数（Llama 3：1600 万 token）；张量并行和流水线并行不改变它，由数据并行和梯度累积凑成。",
            example={"micro_batch": 1, "grad_accum": 16, "n_dp": 128, "seq": 8192},
            meaning_zh="每个优化器步的 token 数：微批次 × 累积步数 × 数据并行副本数 × 序列长度"),
    Formula("grad_accum_steps", (GLOBAL_BATCH_SEQS, MICRO_BATCH.as_("micro_batch", "b_micro"), N_DP),
            "global_batch/(micro_batch*n_dp)", "count",
            "gradient-accumulation steps that make the global batch: global ÷ (micro-batch × data-parallel replicas), "
            "a whole number", "shoeybi2019",
            (Misconception("no_dp", "left out the data-parallel replicas", "global_batch/micro_batch", "漏了数据并行副本数"),),
            "k_acc",
            decomposition=("one accumulation step processes b_micro sequences on each of the N_dp replicas: the global "
                           "batch (in sequences) ÷ (b_micro × N_dp) steps; it must divide exactly",),
            decomposition_zh=("一次累积步在 N_dp 个副本上各处理 b_micro 条序列：全局批（按序列计）÷ (b_micro × N_dp) 步；"
                              "必须整除",),
            takeaway="adding data-parallel GPUs at a fixed global batch lowers the accumulation steps until they reach 1; "
                     "past that, more GPUs need a larger batch.",
            takeaway_zh="全局批不变时增加数据并行的卡会减少累积步数，直到降为 1；再往上加卡就需要更大的批。",
            example={"global_batch": 1024, "micro_batch": 2, "n_dp": 64},
            meaning_zh="凑成全局批所需的梯度累积步数：全局批 ÷（微批次 × 数据并行副本数），须为整数",
            requires=(Requirement("global_batch/(micro_batch*n_dp)", "whole",
                                  "the global batch is not a whole number of micro-batches × replicas: this setup is "
                                  "invalid", "全局批不是 微批次 × 副本数 的整数倍：这个配置无效"),)),
)
