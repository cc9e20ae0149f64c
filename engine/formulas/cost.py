"""Cost and energy: GPU-hours of a run, its price, the price of a million served tokens, joules per
token and the megawatt-hours of a training run.

What a 2026 interviewer asks after the FLOPs: turn 6ΦD and an MFU into hours, dollars and energy.
Prices, powers and PUEs are always given by the problem; the formulas only say how they combine.
"""

from __future__ import annotations

from .compute import NO_MFU
from .core import Formula, Misconception, Part
from .inputs import FLOPS, GPU_HOURS, MFU, N_GPUS, PEAK, POWER, PRICE_GPU_HOUR, PUE, SERVE_TPS
from .registry import register

SPARSE_PEAK = ("used the 2:4-sparse TFLOPS figure (twice the dense one)", "用了 2:4 稀疏的 TFLOPS（是稠密算力的两倍）")
ONE_GPU = ("used one GPU's figure for the whole deployment (left out the GPU count)",
           "把单张 GPU 的数值当成了整个部署的（漏了 GPU 数）")

register(
    Formula("gpu_hours", (FLOPS, PEAK, MFU), "flops/(peak_flops*mfu)/3600", "gpu_hours",
            "GPU-hours a job of this many FLOPs takes: FLOPs ÷ (peak × MFU) ÷ 3600", "kaplan2020, llama3_2024",
            (Misconception("no_mfu", NO_MFU[0], "flops/peak_flops/3600", NO_MFU[1]),
             Misconception("sparse", SPARSE_PEAK[0], "flops/(2*peak_flops*mfu)/3600", SPARSE_PEAK[1]),
             Misconception("gpu_seconds", "gave GPU-seconds, not GPU-hours (forgot ÷ 3600)",
                           "flops/(peak_flops*mfu)", "给出的是 GPU 秒数而不是 GPU 小时数（漏了 ÷ 3600）")),
            "GPU-h",
            decomposition=("one GPU really delivers F_peak × MFU FLOP/s; the job's FLOPs (6ΦD for training) divided by "
                           "that rate is GPU-seconds, and ÷ 3600 GPU-hours",),
            decomposition_zh=("一张 GPU 实际提供 F_peak × MFU 的 FLOP/s；任务的总 FLOPs（训练为 6ΦD）除以这个速率就是 GPU 秒数，"
                              "再 ÷ 3600 得到 GPU 小时数",),
            parts=(Part("rate", "F_peak·MFU", "peak_flops*mfu", "flop_rate", "FLOP/s one GPU really delivers",
                        "一张 GPU 实际提供的 FLOP/s"),),
            via="flops/rate/3600",
            takeaway="GPU-hours depend only on FLOPs and MFU, not on the GPU count: more GPUs finish sooner for the same "
                     "bill, and doubling MFU halves it.",
            takeaway_zh="GPU 小时数只取决于总 FLOPs 和 MFU，与 GPU 数无关：卡多只是更快跑完、账单不变，MFU 翻倍账单减半。",
            example={"flops": 6.3e24, "peak_flops": 989e12, "mfu": 0.4},
            meaning_zh="这么多 FLOPs 的任务需要的 GPU 小时数：FLOPs ÷（峰值 × MFU）÷ 3600"),
    Formula("train_cost", (GPU_HOURS, PRICE_GPU_HOUR), "gpu_hours*price_per_gpu_hour", "dollars",
            "what a run costs: GPU-hours × price per GPU-hour", "llama3_2024",
            (Misconception("times_gpus", "multiplied by the GPU count again (GPU-hours already count every GPU)",
                           "gpu_hours*price_per_gpu_hour*n_gpus", "又乘了一次 GPU 数（GPU 小时数已经把每张卡算进去了）"),),
            "cost",
            decomposition=("the price is per GPU per hour and GPU-hours already sum every GPU's hours: cost = GPU-h × $/GPU-h",),
            decomposition_zh=("价格按每张 GPU 每小时计，GPU 小时数已经把所有卡的小时数加起来了：成本 = GPU-h × $/GPU-h",),
            takeaway="a run's bill is GPU-hours × price: {gpu_hours} at {price_per_gpu_hour} is {result}; MFU and FP8 "
                     "cut the GPU-hours, a cheaper contract the price.",
            takeaway_zh="一次训练的账单 = GPU 小时数 × 单价：{gpu_hours} 乘 {price_per_gpu_hour} 是 {result}；MFU 和 FP8 "
                        "降的是 GPU 小时数，更便宜的合同降的是单价。",
            example={"gpu_hours": 4.4e6, "price_per_gpu_hour": 2.5},
            meaning_zh="一次训练的成本：GPU 小时数 × 每 GPU 小时的价格"),
    Formula("cost_per_mtok", (PRICE_GPU_HOUR, N_GPUS, SERVE_TPS), "1e6*price_per_gpu_hour*n_gpus/(3600*tokens_per_s)",
            "usd_per_mtok", "serving price of a million tokens: the deployment's dollars per hour ÷ the tokens it "
            "serves per hour, × 10⁶", "databricks2023",
            (Misconception("one_gpu", ONE_GPU[0], "1e6*price_per_gpu_hour/(3600*tokens_per_s)", ONE_GPU[1]),
             Misconception("per_token", "gave the price of one token, not of a million",
                           "price_per_gpu_hour*n_gpus/(3600*tokens_per_s)", "给出的是每个 token 的价格，而不是每百万 token")),
            "$/Mtok",
            decomposition=("the deployment costs N × $/GPU-h per hour and serves tok/s × 3600 tokens per hour; their "
                           "ratio is dollars per token, × 10⁶ per million",),
            decomposition_zh=("部署每小时花 N × $/GPU-h，每小时服务 tok/s × 3600 个 token；两者之比是每 token 的美元数，"
                              "× 10⁶ 得到每百万 token",),
            parts=(Part("hourly", "$/h", "price_per_gpu_hour*n_gpus", "dollars", "the deployment's cost per hour",
                        "部署每小时的成本"),
                   Part("tok_hour", "tok/h", "3600*tokens_per_s", "count", "tokens served per hour", "每小时服务的 token 数")),
            via="1e6*hourly/tok_hour",
            takeaway="$/Mtok = GPU cost per hour ÷ tokens per hour: batching more sequences per GPU raises tok/s and is "
                     "the biggest lever on the price.",
            takeaway_zh="$/Mtok = 每小时 GPU 成本 ÷ 每小时 token 数：每张卡批处理更多序列以提高 tok/s，是降价最大的杠杆。",
            example={"price_per_gpu_hour": 2.5, "n_gpus": 8, "tokens_per_s": 20000},
            meaning_zh="每百万 token 的服务价格：部署每小时的美元数 ÷ 每小时服务的 token 数，× 10⁶"),
    Formula("energy_per_token", (POWER, N_GPUS, SERVE_TPS, PUE), "power_w*n_gpus*pue/tokens_per_s", "energy_per_token",
            "joules per served token: the deployment's power (× PUE for the facility) ÷ its tokens per second",
            "patterson2021, gpu_datasheets",
            (Misconception("one_gpu", ONE_GPU[0], "power_w*pue/tokens_per_s", ONE_GPU[1]),),
            "E/token",
            decomposition=("a watt is a joule per second: N GPUs drawing P watts spend N·P J each second, spread over the "
                           "tokens served in that second; PUE adds cooling and power delivery when the facility is counted",),
            decomposition_zh=("1 瓦就是每秒 1 焦耳：N 张各耗 P 瓦的 GPU 每秒花 N·P 焦耳，分摊到这一秒服务的 token 上；"
                              "计入机房时再乘 PUE（制冷和供电损耗）",),
            takeaway="J/token = power ÷ throughput: the same batching that lowers $/Mtok lowers the energy per token; say "
                     "whether the power is the GPU's TDP, the whole node's, or the facility's.",
            takeaway_zh="J/token = 功率 ÷ 吞吐：降低 $/Mtok 的批处理同样降低每 token 能耗；要说清功率是 GPU 的 TDP、整机的还是机房的。",
            example={"power_w": 700, "n_gpus": 8, "tokens_per_s": 20000},
            meaning_zh="每服务一个 token 的焦耳数：部署的功率（计机房时 × PUE）÷ 每秒 token 数"),
    Formula("training_energy_mwh", (GPU_HOURS, POWER, PUE), "gpu_hours*power_w*pue/1e6", "mwh",
            "energy of a training run in MWh: GPU-hours × watts per GPU × PUE ÷ 10⁶", "patterson2021",
            (Misconception("no_pue", "left out the PUE (counted the GPUs' power only)", "gpu_hours*power_w/1e6",
                           "漏了 PUE（只算了 GPU 的功耗）"),),
            "E_train",
            decomposition=("GPU-hours × W per GPU = watt-hours of the accelerators; × PUE for the facility's cooling and "
                           "power delivery; ÷ 10⁶ for MWh",),
            decomposition_zh=("GPU 小时数 × 每卡瓦数 = 加速卡的瓦时数；× PUE 计入机房的制冷和供电；÷ 10⁶ 得到 MWh",),
            parts=(Part("it_mwh", "E_IT", "gpu_hours*power_w/1e6", "mwh", "the accelerators' energy", "加速卡的能耗"),),
            via="it_mwh*pue",
            takeaway="energy follows GPU-hours: everything that raises MFU saves megawatt-hours too; PUE multiplies it all.",
            takeaway_zh="能耗跟着 GPU 小时数走：凡是提高 MFU 的手段也省下兆瓦时；PUE 把这一切再乘上去。",
            example={"gpu_hours": 4.4e6, "power_w": 700, "pue": 1.2},
            meaning_zh="一次训练的能耗（MWh）：GPU 小时数 × 每卡瓦数 × PUE ÷ 10⁶"),
)
