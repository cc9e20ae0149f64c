"""Cost and energy templates: GPU-hours, dollars, served-token prices, megawatt-hours and joules.

Cost and energy: a training run's GPU-hours and dollars from 6ΦD and MFU, what doubling MFU
saves, the price of a million served tokens, the megawatt-hours of a run with its facility's PUE and the
joules of one served token.

Prices and PUEs are drawn from dated ranges (question_bank/data/ranges.toml) and stated with their date in
the prompt: the learner is never asked to know a price.
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_quantity

from .. import hardware, kit, models, ranges, realism
from ..spec import Ask, Given, Ref, Spec, World, given
from ..template import template
from .chip_givens import an
from .model_params import nominal_phi, phi_text

# (chip, the price range of its on-demand cloud hour)
PRICED = (("h100_sxm", "price_h100_ondemand"), ("h200", "price_h200_ondemand"), ("b200", "price_b200_ondemand"))
RUNS = ((8e9, 15e12), (70e9, 15e12), (70e9, 2e12), (405e9, 15e12), (175e9, 3.5e12), (30e9, 6e12))  # (Φ, tokens D)
MFUS = (0.35, 0.38, 0.4, 0.42, 0.45, 0.5)
RUN_GPUS = (1024, 2048, 4096, 8192, 16384, 24576)  # the first four are drawn, the larger ones finish long runs

CONV_EN = ("Conventions: training FLOPs = 6ΦD; TFLOPS = 1e12 FLOP/s, EFLOP = 1e18 FLOP; peaks are dense bf16 "
           "(no 2:4 sparsity); a GPU-hour is one GPU for one hour.")
CONV_ZH = ("约定：训练 FLOPs = 6ΦD；TFLOPS = 1e12 FLOP/s，EFLOP = 1e18 FLOP；峰值为 bf16 稠密算力（不含 2:4 稀疏）；"
           "一个 GPU 小时 = 一张 GPU 用一小时。")


def _priced(rng):
    key, range_id = rng.choice(PRICED)
    gpu = hardware.get(key)
    price = ranges.draw(rng, range_id)
    return gpu, price, ranges.get(range_id).as_of


def _tokens_text(d: float) -> str:
    return f"{d / 1e12:g}T"


def _price_given(price: float) -> Given:
    return given("price_per_gpu_hour", "Price per GPU-hour", "每 GPU 小时价格", price, "usd_per_gpu_hour", "$/GPU-h")


@template("cost.training_run_chain", topic="cost", title="A training run: FLOPs → GPU-hours → dollars",
          title_zh="一次训练：FLOPs → GPU 小时数 → 美元", difficulty=2, target_seconds=300,
          source="kaplan2020, llama3_2024")
def training_run_chain(rng):
    phi, d = rng.choice(RUNS)
    gpu, price, as_of = _priced(rng)
    mfu = rng.choice(MFUS)
    n = rng.choice(RUN_GPUS[:4])
    peak = gpu.peak("bf16")
    gpu_hours = formulas.get("gpu_hours").evaluate(flops=6 * phi * d, peak_flops=peak, mfu=mfu)
    # a run that would take more than about six months is given the next cluster size up, as a real team would
    n = next((k for k in RUN_GPUS if k >= n and gpu_hours / k / 24 <= realism.MAX_RUN_DAYS), RUN_GPUS[-1])
    return Spec(
        scenario_en=f"{an(phi_text(phi), cap=True)}-parameter dense model is trained on "
                    f"{_tokens_text(d)} tokens on {n:,} "
                    f"{gpu.name} GPUs ({peak / 1e12:,.0f} TFLOPS dense bf16) at {mfu:.0%} MFU, rented on demand at "
                    f"${price:g} per GPU-hour ({as_of} cloud prices).",
        scenario_zh=f"一个 {phi_text(phi)} 参数的稠密模型在 {n:,} 张 {gpu.name}（bf16 稠密 {peak / 1e12:,.0f} TFLOPS）上训练 "
                    f"{_tokens_text(d)} 个 token，MFU 为 {mfu:.0%}，按需租用，每 GPU 小时 ${price:g}（{as_of} 的云价格）。",
        givens=(given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),
                given("tokens", "Training tokens D", "训练 token 数 D", d, "count"),
                given("n_gpus", "GPUs", "GPU 数", n),
                given("peak_flops", "Peak dense bf16", "bf16 稠密峰值算力", peak, "flop_rate", "TFLOPS"),
                given("mfu", "MFU", "MFU", mfu, "ratio"),
                _price_given(price)),
        asks=(Ask(formula="train_flops", unit="FLOP",
                  prompt_en="How many FLOPs does the run take?",
                  prompt_zh="这次训练需要多少 FLOPs？"),
              Ask(formula="gpu_hours", inputs={"flops": Ref(0), "peak_flops": peak, "mfu": mfu}, unit="GPU-h",
                  prompt_en="How many GPU-hours is that?",
                  prompt_zh="这相当于多少 GPU 小时？"),
              Ask(formula="train_cost", inputs={"gpu_hours": Ref(1), "price_per_gpu_hour": price}, unit="$",
                  extras={"n_gpus": n},
                  prompt_en="What does the run cost at that price, in dollars?",
                  prompt_zh="按这个价格，这次训练花多少美元？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(gpu=gpu, precision="bf16", phi=phi, n_gpus=n),
    )


@template("cost.double_mfu", topic="cost", title="What doubling MFU saves", title_zh="MFU 翻倍能省多少钱",
          difficulty=3, target_seconds=300, source="kaplan2020, llama3_2024")
def double_mfu(rng):
    phi, d = rng.choice(RUNS)
    gpu, price, as_of = _priced(rng)
    # doubled, it stays within what published runs reach (realism.MAX_MFU, 50 %); 0.23 and 0.24 stand where 0.28
    # and 0.3 stood, so every other seed draws what it drew before
    mfu = rng.choice((0.2, 0.22, 0.25, 0.23, 0.24))
    peak = gpu.peak("bf16")
    flops = 6 * phi * d
    return Spec(
        scenario_en=f"A team trains {an(phi_text(phi))}-parameter dense model on {_tokens_text(d)} "
                    f"tokens on {gpu.name} GPUs ({peak / 1e12:,.0f} TFLOPS dense bf16) rented at "
                    f"${price:g} per GPU-hour ({as_of} cloud prices). Its first run reaches only {mfu:.0%} MFU; "
                    f"overlapping communication and better kernels would bring it to {2 * mfu:.0%}.",
        scenario_zh=f"一个团队用 {gpu.name}（bf16 稠密 {peak / 1e12:,.0f} TFLOPS）训练一个 {phi_text(phi)} 参数的稠密模型，"
                    f"{_tokens_text(d)} 个 token，每 GPU 小时 ${price:g}（{as_of} 的云价格）。"
                    f"第一版只有 {mfu:.0%} 的 MFU；通信与计算重叠、换更好的算子后可以到 {2 * mfu:.0%}。",
        givens=(given("flops", "Training FLOPs 6ΦD", "训练 FLOPs 6ΦD", flops, "flop"),
                given("peak_flops", "Peak dense bf16", "bf16 稠密峰值算力", peak, "flop_rate", "TFLOPS"),
                given("mfu", "MFU now", "当前 MFU", mfu, "ratio"),
                _price_given(price)),
        asks=(Ask(formula="gpu_hours", inputs={"flops": flops, "peak_flops": peak, "mfu": mfu}, unit="GPU-h",
                  prompt_en=f"At {mfu:.0%} MFU, how many GPU-hours does the run take?",
                  prompt_zh=f"MFU 为 {mfu:.0%} 时，这次训练需要多少 GPU 小时？"),
              Ask(formula="train_cost", inputs={"gpu_hours": Ref(0), "price_per_gpu_hour": price}, unit="$",
                  prompt_en="What does that cost, in dollars?",
                  prompt_zh="这要花多少美元？"),
              Ask(formula="gpu_hours", inputs={"flops": flops, "peak_flops": peak, "mfu": 2 * mfu}, unit="GPU-h",
                  prompt_en=f"At {2 * mfu:.0%} MFU, how many GPU-hours does the same run take?",
                  prompt_zh=f"MFU 提高到 {2 * mfu:.0%} 时，同样的训练需要多少 GPU 小时？"),
              Ask(formula="train_cost", inputs={"gpu_hours": Ref(2), "price_per_gpu_hour": price}, unit="$",
                  takeaway="Doubling MFU halves the GPU-hours and so the bill, at any GPU count: the engineering "
                           "that lifts MFU pays for itself in the first large run.",
                  takeaway_zh="MFU 翻倍，GPU 小时数和账单都减半，与 GPU 数无关：提高 MFU 的工程投入在第一次大规模训练中就能"
                              "收回。",
                  prompt_en="And what does it cost then, in dollars?",
                  prompt_zh="那时要花多少美元？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(gpu=gpu, precision="bf16", phi=phi),
    )


@template("cost.per_mtok", topic="cost", title="The price of a million served tokens",
          title_zh="每百万 token 的服务成本", difficulty=2, target_seconds=120, source="databricks2023")
def per_mtok(rng):
    gpu, price, as_of = _priced(rng)
    n = rng.choice((4, 8))
    per_gpu = rng.choice((1500, 2000, 2500, 3000, 4000)) * (2 if gpu.key == "b200" else 1)
    tps = float(n * per_gpu)
    return Spec(
        givens=(_price_given(price), given("n_gpus", "GPUs in the deployment", "部署的 GPU 数", n),
                given("tokens_per_s", "Tokens served per second (whole deployment)", "整个部署每秒服务的 token 数",
                      tps, "tok_rate", "tok/s")),
        asks=(Ask(formula="cost_per_mtok", unit="$/Mtok",
                  prompt_en=f"A 70B-parameter chat model is served on {n} {gpu.name} GPUs rented at ${price:g} per "
                            f"GPU-hour ({as_of} on-demand cloud prices). With continuous batching the deployment "
                            f"generates {tps:,.0f} tokens per second in total. What does a million generated tokens "
                            "cost?",
                  prompt_zh=f"一个 70B 参数的对话模型部署在 {n} 张 {gpu.name} 上，每 GPU 小时 ${price:g}（{as_of} 的按需"
                            f"云价格）。用连续批处理，整个部署每秒共生成 {tps:,.0f} 个 token。每生成一百万个 token "
                            "花多少钱？"),),
        conventions_en="Conventions: the GPUs are billed every hour whether busy or not; Mtok = 10⁶ tokens.",
        conventions_zh="约定：GPU 无论忙闲都按小时计费；Mtok = 10⁶ 个 token。",
        world=World(gpu=gpu, precision="bf16", phi=70e9, n_gpus=n, tp=n, holds=("weights",)),
    )


def _pue(rng) -> tuple[float, str, str]:
    """A facility PUE from the dated ranges: a hyperscaler's fleet or the industry average."""
    range_id = rng.choice(("pue_hyperscaler", "pue_industry_average"))
    r = ranges.get(range_id)
    pue = ranges.draw(rng, range_id, sig=3)
    if range_id == "pue_hyperscaler":
        return pue, f"a hyperscaler's fleet average, {r.as_of}", f"超大规模云厂商的机房平均值，{r.as_of}"
    return pue, f"the industry average, {r.as_of} survey", f"行业平均值，{r.as_of} 年调查"


@template("cost.training_energy", topic="cost", title="Megawatt-hours of a training run",
          title_zh="一次训练消耗多少兆瓦时", difficulty=1, target_seconds=120,
          source="patterson2021, llama3_2024, gpu_datasheets")
def training_energy(rng):
    gpu = hardware.get(rng.choice(("h100_sxm", "h200", "b200")))
    gpu_hours = rng.choice((0.5, 1.2, 2.5, 7.0, 30.84)) * 1e6
    pue, where_en, where_zh = _pue(rng)
    assert gpu.tdp is not None  # each chip drawn here lists its TDP
    power = float(gpu.tdp)
    meta = gpu_hours == 30.84e6
    what_en = "Llama 3.1 405B's pre-training took 30.84 M H100 GPU-hours (Meta, 2024); a run of that size" if meta \
        else f"A run takes {gpu_hours / 1e6:g} M GPU-hours; it"
    what_zh = "Llama 3.1 405B 的预训练用了 3084 万 H100 GPU 小时（Meta，2024）；同样规模的训练" if meta \
        else f"一次训练用了 {gpu_hours / 1e6:g} M GPU 小时；它"
    return Spec(
        givens=(given("gpu_hours", "GPU-hours", "GPU 小时数", gpu_hours, "gpu_hours", "GPU-h"),
                given("power_w", "Power per GPU", "单卡功耗", power, "power", "W"),
                given("pue", "PUE", "PUE", pue)),
        asks=(Ask(formula="training_energy_mwh", unit="MWh",
                  prompt_en=f"{what_en} runs on {gpu.name} GPUs drawing their full {power:,.0f} W board power, in a "
                            f"data center with a PUE of {pue:g} ({where_en}). How many megawatt-hours does the "
                            "facility draw for it?",
                  prompt_zh=f"{what_zh}跑在 {gpu.name} 上，每卡按满功耗 {power:,.0f} W 计，机房 PUE 为 {pue:g}（{where_zh}）。"
                            "整个机房为这次训练消耗多少兆瓦时 (MWh)？"),),
        conventions_en="Conventions: the GPUs draw their board power (TDP) throughout; PUE = facility power ÷ IT "
                       "power; CPUs, network and storage are inside the PUE's overhead.",
        conventions_zh="约定：GPU 全程按板卡功耗 (TDP) 计；PUE = 机房总功耗 ÷ IT 功耗；CPU、网络和存储算在 PUE 的开销里。",
        world=World(gpu=gpu),
    )


@template("cost.joules_per_token", topic="cost", title="Joules per served token",
          title_zh="每服务一个 token 消耗多少焦耳", difficulty=2, target_seconds=120,
          source="patterson2021, gpu_datasheets")
def joules_per_token(rng):
    gpu = hardware.get(rng.choice(("h100_sxm", "h200", "b200")))
    n = 8
    per_gpu = rng.choice((1500, 2000, 2500, 3000, 4000)) * (2 if gpu.key == "b200" else 1)
    tps = float(n * per_gpu)
    pue, where_en, where_zh = _pue(rng)
    assert gpu.tdp is not None  # each chip drawn here lists its TDP
    power = float(gpu.tdp)
    return Spec(
        givens=(given("power_w", "Power per GPU", "单卡功耗", power, "power", "W"),
                given("n_gpus", "GPUs", "GPU 数", n),
                given("tokens_per_s", "Tokens served per second (whole node)", "整个节点每秒服务的 token 数", tps,
                      "tok_rate", "tok/s"),
                given("pue", "PUE", "PUE", pue)),
        asks=(Ask(formula="energy_per_token", unit="J/token",
                  prompt_en=f"An 8-GPU {gpu.name} node serves a 70B-parameter model at {tps:,.0f} generated tokens "
                            f"per second in total, each GPU drawing {power:,.0f} W, in a data center with a PUE of "
                            f"{pue:g} ({where_en}). How many joules does the facility spend per generated token?",
                  prompt_zh=f"一台 8 卡 {gpu.name} 节点部署一个 70B 参数的模型，整个节点每秒共生成 {tps:,.0f} 个 token，每卡功耗 "
                            f"{power:,.0f} W，机房 PUE 为 {pue:g}（{where_zh}）。机房每生成一个 token 消耗多少焦耳？"),),
        conventions_en="Conventions: the GPUs draw their board power (TDP); PUE = facility power ÷ IT power.",
        conventions_zh="约定：GPU 按板卡功耗 (TDP) 计；PUE = 机房总功耗 ÷ IT 功耗。",
        world=World(gpu=gpu, precision="bf16", phi=70e9, n_gpus=n, tp=n, holds=("weights",)),
    )


@template("cost.training_energy_chain", topic="cost", title="A training run's energy: FLOPs → GPU-hours → MWh",
          title_zh="一次训练的能耗：FLOPs → GPU 小时数 → MWh", difficulty=2, target_seconds=300,
          source="kaplan2020, patterson2021, gpu_datasheets")
def training_energy_chain(rng):
    phi, d = rng.choice(RUNS)
    gpu = hardware.get(rng.choice(("h100_sxm", "h200", "b200")))
    mfu = rng.choice(MFUS)
    pue, where_en, where_zh = _pue(rng)
    assert gpu.tdp is not None  # each chip drawn here lists its TDP
    peak, power = gpu.peak("bf16"), float(gpu.tdp)
    return Spec(
        scenario_en=f"{an(phi_text(phi), cap=True)}-parameter dense model is trained on "
                    f"{_tokens_text(d)} tokens on {gpu.name} GPUs ({peak / 1e12:,.0f} TFLOPS dense bf16, "
                    f"{power:,.0f} W board power) at {mfu:.0%} MFU, in a data center with a PUE of {pue:g} "
                    f"({where_en}).",
        scenario_zh=f"一个 {phi_text(phi)} 参数的稠密模型在 {gpu.name}（bf16 稠密 {peak / 1e12:,.0f} TFLOPS，板卡功耗 "
                    f"{power:,.0f} W）上训练 {_tokens_text(d)} 个 token，MFU 为 {mfu:.0%}，机房 PUE 为 {pue:g}（{where_zh}）。",
        givens=(given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),
                given("tokens", "Training tokens D", "训练 token 数 D", d, "count"),
                given("peak_flops", "Peak dense bf16", "bf16 稠密峰值算力", peak, "flop_rate", "TFLOPS"),
                given("mfu", "MFU", "MFU", mfu, "ratio"),
                given("power_w", "Power per GPU", "单卡功耗", power, "power", "W"),
                given("pue", "PUE", "PUE", pue)),
        asks=(Ask(formula="train_flops", unit="FLOP",
                  prompt_en="How many FLOPs does the run take?",
                  prompt_zh="这次训练需要多少 FLOPs？"),
              Ask(formula="gpu_hours", inputs={"flops": Ref(0), "peak_flops": peak, "mfu": mfu}, unit="GPU-h",
                  prompt_en="How many GPU-hours is that?",
                  prompt_zh="这相当于多少 GPU 小时？"),
              Ask(formula="training_energy_mwh", inputs={"gpu_hours": Ref(1), "power_w": power, "pue": pue},
                  unit="MWh",
                  takeaway="energy = GPU-hours × watts × PUE: the same MFU that cuts the bill cuts the megawatt-hours, "
                           "and the facility's PUE multiplies the accelerators' own draw by {pue}.",
                  takeaway_zh="能耗 = GPU 小时数 × 瓦数 × PUE：降低账单的 MFU 同样降低兆瓦时，机房的 PUE 再把加速卡自身的能耗"
                              "乘以 {pue}。",
                  prompt_en="How many megawatt-hours does the facility draw for the run?",
                  prompt_zh="整个机房为这次训练消耗多少兆瓦时 (MWh)？")),
        conventions_en=CONV_EN + " The GPUs draw their board power (TDP) throughout; PUE = facility power ÷ IT "
                       "power; CPUs, network and storage are inside the PUE's overhead.",
        conventions_zh=CONV_ZH + "GPU 全程按板卡功耗 (TDP) 计；PUE = 机房总功耗 ÷ IT 功耗；CPU、网络和存储算在 PUE 的开销里。",
        world=World(gpu=gpu, precision="bf16", phi=phi),
    )


SERVE_BATCHES = (32, 48, 64, 96, 128)
SERVE_CONTEXTS = (2048, 4096, 8192)


def _serving_node(rng) -> dict:
    """An 8-GPU node serving Llama 3.1 70B in bf16 with TP = 8: a batch whose KV cache fits next to the weights
    and whose decode step stays memory-bound (its FLOPs at peak take at most half the step's memory time)."""
    m = models.get("llama31_70b")
    while True:
        gpu, price, as_of = _priced(rng)
        batch, ctx = rng.choice(SERVE_BATCHES), rng.choice(SERVE_CONTEXTS)
        phi = nominal_phi(m)
        kv_token = formulas.get("kv_bytes_per_token").evaluate(**m.kv_inputs(), bytes_per_elem=2)
        kv_seq, weights, bw = kv_token * ctx, 2 * phi, 8 * gpu.bandwidth
        step_bytes = weights + batch * kv_seq
        if step_bytes <= 0.9 * 8 * gpu.memory and 2 * phi * batch / (8 * gpu.peak("bf16")) <= 0.5 * step_bytes / bw:
            return {"m": m, "gpu": gpu, "price": price, "as_of": as_of, "batch": batch, "ctx": ctx, "phi": phi,
                    "kv_token": kv_token, "kv_seq": kv_seq, "weights": weights, "bw": bw}


@template("cost.serving_energy_chain", topic="cost",
          title="Serving a 70B model: node throughput → joules per token → dollars per million tokens",
          title_zh="部署 70B 模型：节点吞吐 → 每 token 焦耳数 → 每百万 token 美元数", difficulty=3, target_seconds=360,
          source="pope2022, patterson2021, databricks2023, gpu_datasheets")
def serving_energy_chain(rng):
    s = _serving_node(rng)
    m, gpu = s["m"], s["gpu"]
    pue, where_en, where_zh = _pue(rng)
    power = float(gpu.tdp)
    kv_token = fmt_quantity(s["kv_token"], "bytes", unit="kB")
    kv_seq = fmt_quantity(s["kv_seq"], "bytes", unit="GB")
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(s['phi'])}, bf16 weights and KV cache) is served on one 8-GPU "
                    f"{gpu.name} node with tensor parallelism 8, decoding a batch of {s['batch']} sequences of "
                    f"{s['ctx']:,} tokens of context. The GPUs draw {power:,.0f} W each, in a data center with a PUE "
                    f"of {pue:g} ({where_en}), and rent at ${s['price']:g} per GPU-hour ({s['as_of']} on-demand cloud "
                    "prices).",
        scenario_zh=f"{m.name}（Φ = {phi_text(s['phi'])}，权重和 KV Cache 均为 bf16）部署在一台 8 卡 {gpu.name} 节点上，张量并行 "
                    f"8，decode 一个 {s['batch']} 条序列的 batch，每条序列 {s['ctx']:,} 个 token 的上下文。每卡功耗 "
                    f"{power:,.0f} W，机房 PUE 为 {pue:g}（{where_zh}），每 GPU 小时租金 ${s['price']:g}（{s['as_of']} 的按需"
                    "云价格）。",
        givens=(kit.model(m, "phi"), kit.model(m, "layers"), kit.model(m, "n_kv_heads"), kit.model(m, "d_head"),
                given("batch", "Batch B", "batch 大小 B", s["batch"]),
                given("context", "Context per sequence", "每条序列的上下文", s["ctx"], "count"),
                kit.chip(gpu, "bandwidth", times=8, label=("Memory bandwidth (8 GPUs)", "显存带宽（8 张 GPU）")),
                given("power_w", "Power per GPU", "单卡功耗", power, "power", "W"),
                given("n_gpus", "GPUs", "GPU 数", 8),
                given("pue", "PUE", "PUE", pue),
                _price_given(s["price"])),
        asks=(Ask(formula="decode_tokens_per_s_batch", unit="tok/s",
                  inputs={"bandwidth": s["bw"], "weight_bytes": s["weights"], "kv_bytes_per_seq": s["kv_seq"],
                          "batch": s["batch"]},
                  explanation=(f"weights: 2 B × {phi_text(s['phi'])} = {fmt_quantity(s['weights'], 'bytes', unit='GB')}",
                               f"KV per token = 2 × {m.layers} × {m.n_kv_heads} × {m.d_head} × 2 B = {kv_token}; "
                               f"per sequence × {s['ctx']:,} = {kv_seq}"),
                  explanation_zh=(f"权重：2 B × {phi_text(s['phi'])} = {fmt_quantity(s['weights'], 'bytes', unit='GB')}",
                                  f"每 token 的 KV = 2 × {m.layers} × {m.n_kv_heads} × {m.d_head} × 2 B = {kv_token}；"
                                  f"每条序列 × {s['ctx']:,} = {kv_seq}"),
                  prompt_en="At best (memory-bound, the 8 GPUs' bandwidth together), how many tokens per second does "
                            "the node generate?",
                  prompt_zh="最理想情况下（访存受限，8 张卡的带宽合计），这台节点每秒生成多少个 token？"),
              Ask(formula="energy_per_token", unit="J/token",
                  inputs={"power_w": power, "n_gpus": 8, "tokens_per_s": Ref(0), "pue": pue},
                  prompt_en="How many joules does the facility spend per generated token?",
                  prompt_zh="机房每生成一个 token 消耗多少焦耳？"),
              Ask(formula="cost_per_mtok", unit="$/Mtok",
                  inputs={"price_per_gpu_hour": s["price"], "n_gpus": 8, "tokens_per_s": Ref(0)},
                  takeaway="joules and dollars per token both fall as tokens per second rise: the batch that fills "
                           "the node's bandwidth with useful KV reads is the lever on energy and price alike.",
                  takeaway_zh="每 token 的焦耳数和美元数都随每秒 token 数上升而下降：batch 越大，节点带宽越多地花在有用的 KV 读取上，"
                              "它同时是降低能耗和价格的杠杆。",
                  prompt_en="What does a million generated tokens cost at the rental price?",
                  prompt_zh="按租金计，每生成一百万个 token 花多少钱？")),
        conventions_en="Conventions: tensor parallelism splits the weights and the KV cache evenly, so a decode step "
                       "reads them at the 8 GPUs' bandwidth together (communication aside); the step is memory-bound; "
                       "the GPUs draw their board power (TDP) and are billed every hour; PUE = facility power ÷ IT "
                       "power; Mtok = 10⁶ tokens; kB = 1e3 B, GB = 1e9 B, TB/s = 1e12 B/s.",
        conventions_zh="约定：张量并行把权重和 KV Cache 均分，所以一个 decode 步以 8 张卡的合计带宽读取它们（不计通信）；decode "
                       "步访存受限；GPU 按板卡功耗 (TDP) 计、按小时计费；PUE = 机房总功耗 ÷ IT 功耗；Mtok = 10⁶ 个 token；"
                       "kB = 1e3 B，GB = 1e9 B，TB/s = 1e12 B/s。",
        world=World(model=m, gpu=gpu, precision="bf16", kv="bf16", n_gpus=8, tp=8, seq=s["ctx"], batch=s["batch"],
                    holds=("weights", "kv")),
    )
