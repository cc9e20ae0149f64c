"""Pipeline parallelism: the bubble of 1F1B, interleaved and asymmetric schedules, micro-batches for a
target bubble, in-flight micro-batches and activation memory per stage, step time with a bubble.

The seeds' module 6 (C§6) and the bank's additions; the spec's note on the two bubble conventions
(share of total time vs of ideal time) applies to every formula here.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BUBBLE,
    BUBBLE_TARGET,
    COMPUTE_TIME,
    INFLIGHT,
    MICRO_BATCH_LAYER_BYTES,
    MICRO_BATCHES,
    P_STAGES,
    STAGE_INDEX,
    STAGE_LAYERS,
    STAGE_TIMES,
    T_B,
    T_F,
    T_FB,
    T_W,
    VIRTUAL_STAGES,
)
from .registry import register

register(
    Formula("bubble_1f1b", (P_STAGES, MICRO_BATCHES), "(p-1)/(m+p-1)", "ratio",
            "1F1B pipeline bubble as a share of total time", "C§6.1",
            (Misconception("ideal_time", "used (P−1)/m, the bubble relative to ideal time (Narayanan et al.)",
                           "(p-1)/m", "用了 (P−1)/m，那是气泡相对理想时间的比例（Narayanan 等）"),), "bubble",
            refs="narayanan2021, huang2019",
            decomposition=("filling and draining the pipeline costs P−1 micro-batch slots; the useful work is m slots: "
                           "bubble share = (P−1)/(m+P−1)",),
            decomposition_zh=("流水线的填充和排空占 P−1 个微批次的时隙，有效工作占 m 个：气泡率 = (P−1)/(m+P−1)",),
            simplification=("for m ≫ P the bubble ≈ (P−1)/m: more micro-batches per step shrink it",),
            simplification_zh=("m ≫ P 时气泡率 ≈ (P−1)/m：每步的微批次越多，气泡越小",),
            takeaway="keep m at least about 4× P to push the bubble under ~20 %; interleaving divides it further.",
            takeaway_zh="m 至少取 P 的 4 倍左右，气泡率才能压到约 20 % 以下；交错调度还能再降。",
            example={"p": 4, "m": 16},
            meaning_zh="1F1B 流水线气泡占总时间的比例"),
    Formula("bubble_interleaved", (P_STAGES, MICRO_BATCHES, VIRTUAL_STAGES),
            "(p-1)/(v*m+p-1)", "ratio", "interleaved 1F1B bubble as a share of total time", "C§6.2",
            (Misconception("no_v", "left out the virtual stages v (plain 1F1B)", "(p-1)/(m+p-1)",
                           "漏了虚拟阶段数 v（当成了普通 1F1B）"),
             Misconception("ideal_time", "used (P−1)/(v·m), relative to ideal time", "(p-1)/(v*m)",
                           "用了 (P−1)/(v·m)，那是相对理想时间的比例")), "bubble",
            refs="narayanan2021",
            decomposition=("each GPU holds v smaller stages, so filling and draining take P−1 slots of 1/v the size: "
                           "bubble = (P−1)/(v·m + P−1)",),
            decomposition_zh=("每张 GPU 放 v 个更小的阶段，填充和排空仍是 P−1 个时隙，但每个只有 1/v 大小："
                              "气泡率 = (P−1)/(v·m + P−1)",),
            simplification=("for v·m ≫ P the bubble ≈ (P−1)/(v·m): v times smaller than plain 1F1B",),
            simplification_zh=("v·m ≫ P 时气泡率 ≈ (P−1)/(v·m)：是普通 1F1B 的 1/v",),
            takeaway="interleaving cuts the bubble about v-fold, paid for with v times more point-to-point messages.",
            takeaway_zh="交错调度把气泡缩小约 v 倍，代价是点对点通信次数多 v 倍。",
            example={"p": 4, "m": 8, "v": 2},
            meaning_zh="交错式 1F1B 的气泡占总时间的比例"),
    Formula("bubble_asymmetric", (STAGE_TIMES, MICRO_BATCHES),
            "1 - m*sum(stage_times)/(len(stage_times)*(sum(stage_times) + (m-1)*max(stage_times)))", "ratio",
            "pipeline bubble when stages take different times (P = number of stages)", "C§6.3",
            (Misconception("uniform", "used the uniform 1F1B formula (P−1)/(m+P−1)",
                           "(len(stage_times)-1)/(m+len(stage_times)-1)", "用了各阶段耗时相同时的 1F1B 公式 (P−1)/(m+P−1)"),
             Misconception("limit", "gave the m → ∞ limit 1 − mean(t)/max(t)",
                           "1 - sum(stage_times)/(len(stage_times)*max(stage_times))",
                           "给出的是 m → ∞ 时的极限 1 − mean(t)/max(t)")), "bubble",
            refs="narayanan2021",
            decomposition=("the slowest stage sets the beat: a step takes sum(t) to fill and drain plus (m−1)·max(t) in "
                           "steady state; the stages do m·sum(t) of useful work out of P times that",),
            decomposition_zh=("最慢的阶段决定节拍：一步耗时 = 填充排空 sum(t) + 稳态 (m−1)·max(t)；各阶段有效工作共 "
                              "m·sum(t)，占 P 倍步长中的一部分",),
            parts=(Part("t_step", "T_step", "sum(stage_times) + (m-1)*max(stage_times)", "count",
                        "time of one step, in the unit of t", "一步的时间，与 t 同单位"),
                   Part("busy", "m·Σt", "m*sum(stage_times)", "count", "useful work of all stages, in the unit of t",
                        "所有阶段的有效工作，与 t 同单位")),
            via="1 - busy/(len(stage_times)*t_step)",
            simplification=("as m → ∞ the bubble tends to 1 − mean(t)/max(t): uneven stages waste time however many "
                            "micro-batches there are",),
            simplification_zh=("m → ∞ 时气泡率趋于 1 − mean(t)/max(t)：阶段不均衡，再多微批次也有浪费",),
            takeaway="balance the stages before adding micro-batches: an uneven split leaves a bubble no m removes.",
            takeaway_zh="先平衡各阶段，再加微批次：切分不均留下的气泡，m 再大也消除不了。",
            example={"stage_times": (10e-3, 10e-3, 10e-3, 20e-3), "m": 8},
            meaning_zh="各阶段耗时不同时的流水线气泡率（P = 阶段数）"),
    Formula("micro_batches_for_bubble", (P_STAGES, BUBBLE_TARGET),
            "ceil((p-1)*(1/target - 1))", "count",
            "fewest micro-batches m with 1F1B bubble (P−1)/(m+P−1) ≤ target", "C§6.1",
            (Misconception("ideal_time", "solved (P−1)/m ≤ target (bubble over ideal time, not total time)",
                           "ceil((p-1)/target)", "解的是 (P−1)/m ≤ 目标（气泡相对理想时间，而不是总时间）"),
             Misconception("rounded_down", "rounded down: the bubble would exceed the target",
                           "floor((p-1)*(1/target - 1))", "向下取整了：气泡率会超过目标")), "m_min",
            refs="narayanan2021",
            decomposition=("solve (P−1)/(m+P−1) ≤ target for m: m ≥ (P−1)(1/target − 1), rounded up",),
            decomposition_zh=("解 (P−1)/(m+P−1) ≤ 目标：m ≥ (P−1)(1/目标 − 1)，向上取整",),
            parts=(Part("exact", "m_exact", "(p-1)*(1/target - 1)", "count", "before rounding up", "向上取整前"),),
            takeaway="the bubble falls only like 1/m: halving the target roughly doubles the micro-batches, each "
                     "smaller for a fixed global batch.",
            takeaway_zh="气泡率只按 1/m 下降：目标减半，微批次数约翻倍；全局 batch 不变时每个微批次更小。",
            example={"p": 8, "target": 0.1},
            meaning_zh="使 1F1B 气泡率 (P−1)/(m+P−1) ≤ 目标的最少微批次数"),
    Formula("inflight_microbatches_1f1b", (P_STAGES, STAGE_INDEX),
            "p - stage + 1", "count",
            "micro-batches whose activations stage k holds at the peak of a 1F1B schedule (m ≥ P): the first stage "
            "runs P forwards before its first backward",
            "narayanan2021",
            (Misconception("gpipe_all", "kept every micro-batch of the step in flight (that is GPipe)", "m",
                           "让一步里所有微批次都同时在途（那是 GPipe）"),
             Misconception("one_inflight", "kept one micro-batch in flight (no pipelining)", "1",
                           "只让一个微批次在途（没有流水）")), "in-flight",
            decomposition=("warm-up: the first backward can start only when micro-batch 1 has passed all P stages, so "
                           "stage k has run P − k + 1 forwards by then (the first stage P, the last one 1)",
                           "steady state: one forward, one backward; each backward frees a micro-batch as the next "
                           "forward adds one, so the count stays at P − k + 1 whatever m is"),
            decomposition_zh=("预热：第 1 个微批次走完全部 P 个阶段后才能开始第一次反向，此时第 k 个阶段已做了 "
                              "P − k + 1 次前向（第一阶段 P 次，最后一个阶段 1 次）",
                              "稳态：一次前向、一次反向交替；每次反向释放一个微批次，下一次前向再加入一个，所以无论 m "
                              "多大，在途数都保持 P − k + 1"),
            simplification=("the first stage holds the most (P micro-batches), the last just 1: pipeline activation "
                            "memory is uneven, and the first stage sets the limit",),
            simplification_zh=("第一阶段持有最多（P 个微批次），最后一个阶段只有 1 个：流水线的激活显存并不均匀，"
                               "第一阶段决定上限",),
            takeaway="1F1B caps the in-flight micro-batches at P, independent of m: unlike GPipe, more micro-batches "
                     "shrink the bubble without costing activation memory.",
            takeaway_zh="1F1B 把在途微批次数限制在 P 个以内，与 m 无关：不像 GPipe，增加微批次能缩小气泡却不增加激活显存。",
            example={"p": 8, "stage": 1},
            meaning_zh="1F1B 调度（m ≥ P）峰值时第 k 个阶段保存激活值的微批次数：第一阶段在第一次反向前要做 P 次前向"),
    Formula("stage_activation_bytes", (INFLIGHT, STAGE_LAYERS, MICRO_BATCH_LAYER_BYTES),
            "inflight*stage_layers*layer_bytes", "bytes",
            "activation memory a pipeline stage holds: its layers' activations for each in-flight micro-batch",
            "korthikanti2022, narayanan2021",
            (Misconception("one_microbatch", "stored one micro-batch only", "stage_layers*layer_bytes",
                           "只存了一个微批次"),), "M_stage",
            decomposition=("a micro-batch's activations stay on the stage from its forward until its backward: each of "
                           "the n_inflight micro-batches keeps L_stage layers × M_act",),
            decomposition_zh=("一个微批次的激活值从它的前向一直保留到它的反向：n_inflight 个在途微批次，每个都保存 "
                              "L_stage 层 × M_act",),
            parts=(Part("per_mb", "L_stage·M_act", "stage_layers*layer_bytes", "bytes",
                        "one micro-batch through the stage's layers", "一个微批次在该阶段所有层上的激活值"),),
            via="inflight*per_mb",
            takeaway="a stage's activation memory is micro-batches in flight × its layers' activations: the schedule "
                     "(1F1B at most P, GPipe all m), not the model, sets the multiplier.",
            takeaway_zh="一个阶段的激活显存 = 在途微批次数 × 该阶段各层的激活值：这个倍数由调度决定"
                        "（1F1B 最多 P，GPipe 为全部 m），而不是模型。",
            example={"inflight": 8, "stage_layers": 10, "layer_bytes": 200e6},
            meaning_zh="流水线一个阶段保存的激活显存：每个在途微批次在该阶段各层上的激活值", per_device=True),
    Formula("interleaved_activation_factor", (P_STAGES, VIRTUAL_STAGES),
            "1 + (p-1)/(p*v)", "count",
            "activation memory of the first stage with interleaved 1F1B relative to plain 1F1B",
            "korthikanti2022, narayanan2021",
            (Misconception("free_interleaving", "assumed interleaving costs no extra activation memory", "1",
                           "以为交错调度不增加激活显存"),
             Misconception("extra_only", "gave only the extra part (P−1)/(P·v), not the total factor", "(p-1)/(p*v)",
                           "只给了额外的部分 (P−1)/(P·v)，不是总倍数")), "factor",
            decomposition=("plain 1F1B: the first GPU holds P micro-batches × its L/P layers = L layers' worth of "
                           "activations",
                           "interleaved: the first GPU's chunks are L/(P·v) layers each, and its warm-up keeps P·v + "
                           "P − 1 micro-batch chunks in flight: (P·v + P − 1) × L/(P·v) = L × (1 + (P−1)/(P·v))"),
            decomposition_zh=("普通 1F1B：第一张 GPU 保存 P 个微批次 × 它的 L/P 层 = L 层的激活值",
                              "交错式：第一张 GPU 的每个模型块只有 L/(P·v) 层，而预热期要让 P·v + P − 1 个"
                              "“微批次 × 模型块”在途：(P·v + P − 1) × L/(P·v) = L × (1 + (P−1)/(P·v))"),
            parts=(Part("chunks", "P·v + P − 1", "p*v + p - 1", "count", "micro-batch chunks in flight on the first GPU",
                        "第一张 GPU 上在途的“微批次 × 模型块”数"),),
            via="chunks/(p*v)",
            simplification=("→ 1 + 1/v for large P: v = 2 costs up to 50 % more activation memory on the first stage",),
            simplification_zh=("P 很大时 → 1 + 1/v：v = 2 时第一阶段的激活显存最多多出 50 %",),
            takeaway="interleaving buys a v-fold smaller bubble with up to (1 + 1/v)× the first stage's activations "
                     "and v× the point-to-point messages.",
            takeaway_zh="交错调度用第一阶段最多 (1 + 1/v) 倍的激活显存和 v 倍的点对点通信，换来缩小到 1/v 的气泡。",
            example={"p": 4, "v": 2},
            meaning_zh="交错式 1F1B 下第一阶段的激活显存相对普通 1F1B 的倍数"),
    Formula("step_time_with_bubble", (COMPUTE_TIME, BUBBLE),
            "compute_time/(1 - bubble)", "time",
            "step time once the pipeline bubble is added: the busy time is (1 − bubble) of the total",
            "C§6.1",  # the bubble as a share of the total time
            (Misconception("ideal_time", "treated the bubble as a share of the ideal time: T·(1 + bubble)",
                           "compute_time*(1 + bubble)", "把气泡当成了相对理想时间的比例：T·(1 + 气泡率)"),
             Misconception("no_bubble", "left the bubble out", "compute_time", "漏掉了气泡")), "T_step",
            refs="narayanan2021",
            decomposition=("the bubble is a share of the TOTAL step: the GPUs compute for (1 − bubble) × T_step, so "
                           "T_step = T_compute / (1 − bubble)",),
            decomposition_zh=("气泡率是占一步总时间的比例：GPU 只有 (1 − 气泡率) × T_step 在计算，所以 "
                              "T_step = T_compute / (1 − 气泡率)",),
            parts=(Part("busy", "1 − bubble", "1 - bubble", "ratio", "share of the step the GPUs compute",
                        "一步中 GPU 在计算的比例"),),
            via="compute_time/busy",
            simplification=("for a small bubble 1/(1 − b) ≈ 1 + b, which is why T·(1 + b) comes out close but short; "
                            "the gap grows with b: a 50 % bubble doubles the step",),
            simplification_zh=("气泡率小时 1/(1 − b) ≈ 1 + b，所以 T·(1 + b) 很接近但偏小；b 越大差得越多："
                               "50 % 的气泡让一步的时间翻倍",),
            takeaway="the bubble is paid in wall-clock time: every GPU idles {bubble} of each {result} step; more "
                     "micro-batches per step (m ≫ P) or interleaved stages shrink it.",
            takeaway_zh="气泡是实打实的墙钟时间：每一步 {result} 里每张卡都有 {bubble} 在空等；每步多放微批次（m ≫ P）"
                        "或用交错式调度可以缩小它。",
            example={"compute_time": 10.0, "bubble": 0.2},
            meaning_zh="加上流水线气泡后的一步时间：忙碌时间只占总时间的 (1 − 气泡率)"),
    # ------------------------------------------ bubble times of modern schedules (DeepSeek-V3 report, Table 2)
    Formula("bubble_time_1f1b", (P_STAGES, T_F, T_B), "(p - 1)*(t_f + t_b)", "time",
            "idle time of a 1F1B pipeline per step: (p − 1) forward and backward passes while it fills and drains",
            "narayanan2021, deepseek_v3",
            (Misconception("forward_only", "counted only the forward passes of the fill ((p − 1)·t_F)", "(p - 1)*t_f",
                           "只算了填充阶段的前向（(p − 1)·t_F）"),
             Misconception("p_not_p_minus_1", "used p instead of p − 1 stages", "p*(t_f + t_b)",
                           "用了 p 而不是 p − 1")),
            "T_bubble",
            decomposition=("the last stage starts its first forward (p − 1)·t_F late and the first stage finishes its last "
                           "backward (p − 1)·t_B after the others: (p − 1)(t_F + t_B) of idle time per stage",),
            decomposition_zh=("最后一个阶段的第一个前向晚开始 (p − 1)·t_F，第一个阶段的最后一个反向比其他阶段晚结束 "
                              "(p − 1)·t_B：每个阶段空闲 (p − 1)(t_F + t_B)",),
            takeaway="1F1B's bubble does not shrink with more micro-batches, only its share does: the schedules after it "
                     "attack the (p − 1)(t_F + t_B) itself.",
            takeaway_zh="1F1B 的气泡时间不随微批次增多而缩短，缩小的只是它的占比：之后的调度方法针对的就是 (p − 1)(t_F + t_B) 本身。",
            example={"p": 8, "t_f": 0.01, "t_b": 0.02},
            meaning_zh="1F1B 流水线每步的空闲时间：填充和排空时的 (p − 1) 次前向与反向"),
    Formula("bubble_time_zb1p", (P_STAGES, T_F, T_B, T_W), "(p - 1)*(t_f + t_b - 2*t_w)", "time",
            "idle time of the zero-bubble ZB1P schedule: the weight-gradient passes (t_W) fill the bubble; t_B is the "
            "whole backward (DeepSeek's notation)", "qi2023, deepseek_v3",
            (Misconception("one_t_w", "subtracted t_W once: that is the zero-bubble paper's form, whose T_B is the "
                           "input-gradient part only", "(p - 1)*(t_f + t_b - t_w)",
                           "只减了一次 t_W：那是零气泡论文的写法，其中 T_B 只是输入梯度部分"),),
            "T_bubble",
            decomposition=("split the backward into the input gradient (needed by the previous stage at once) and the "
                           "weight gradient t_W (needed only by the optimizer): deferring the t_W passes into the bubble "
                           "removes 2·t_W of it per stage: (p − 1)(t_F + t_B − 2t_W)",),
            decomposition_zh=("把反向拆成输入梯度（上一阶段马上要用）和权重梯度 t_W（只有优化器要用）：把 t_W 推迟到气泡里做，"
                              "每个阶段消掉 2·t_W：(p − 1)(t_F + t_B − 2t_W)",),
            takeaway="zero-bubble schedules fill the pipeline's idle time with weight-gradient work that nothing waits for: "
                     "same memory as 1F1B, most of the bubble gone.",
            takeaway_zh="零气泡调度用没人等待的权重梯度计算填满流水线的空闲时间：显存与 1F1B 相同，大部分气泡消失。",
            example={"p": 8, "t_f": 0.01, "t_b": 0.02, "t_w": 0.01},
            meaning_zh="零气泡 ZB1P 调度的空闲时间：权重梯度计算（t_W）填进气泡；t_B 为完整的反向（DeepSeek 的记法）"),
    Formula("bubble_time_dualpipe", (P_STAGES, T_FB, T_B, T_W), "(p/2 - 1)*(t_fb + t_b - 3*t_w)", "time",
            "idle time of DeepSeek's DualPipe: micro-batches fed from both ends, a forward and a backward chunk "
            "overlapped (t_F&B), weight gradients deferred", "deepseek_v3",
            (Misconception("p_minus_1", "used p − 1 as for 1F1B: feeding both ends halves the fill",
                           "(p - 1)*(t_fb + t_b - 3*t_w)", "像 1F1B 那样用了 p − 1：从两端同时喂入让填充减半"),),
            "T_bubble",
            decomposition=("DualPipe feeds micro-batches from both ends of the pipeline, so it fills in p/2 − 1 steps; "
                           "each overlaps a forward and a backward chunk (t_F&B, between max(t_F, t_B) and t_F + t_B) "
                           "and defers weight gradients: (p/2 − 1)(t_F&B + t_B − 3t_W)",),
            decomposition_zh=("DualPipe 从流水线两端同时喂入微批次，填充只要 p/2 − 1 步；每步把一个前向块和一个反向块重叠执行"
                              "（t_F&B，介于 max(t_F, t_B) 与 t_F + t_B 之间），并推迟权重梯度：(p/2 − 1)(t_F&B + t_B − 3t_W)",),
            takeaway="DualPipe halves the fill and hides communication inside the overlapped chunks, at the cost of "
                     "keeping two copies of the parameters.",
            takeaway_zh="DualPipe 让填充减半，并把通信藏在重叠的计算块里，代价是保存两份参数。",
            example={"p": 8, "t_fb": 0.025, "t_b": 0.02, "t_w": 0.01},
            meaning_zh="DeepSeek DualPipe 的空闲时间：从两端喂入微批次，前向块与反向块重叠（t_F&B），权重梯度推迟"),
)
