"""Tensor parallelism at decode and sharded data parallelism: the all-reduce time of a TP decode step (ring or
one-shot), an all-reduce with in-switch reduction (NVLS), the largest TP degree that stays compute-bound, the
per-GPU batch that hides FSDP's traffic, and the bytes a GPU sends under hybrid sharding.

Chips are the catalogue's NVLink-switched GPUs (H100, H200, B200) with their one-way NVLink bandwidth
(450 / 900 GB/s); the per-step all-reduce latency alpha is 2-10 µs (the spec's range, not verified against a
primary source: it is measured); models are the catalogue's 70B-405B dense models (80-126 layers).  Across
nodes a GPU has one 400 or 800 Gb/s NIC (50 / 100 GB/s one way: the range scaleout_nic_per_gpu).
"""

from __future__ import annotations

from engine.choices import Choice
from engine.count_nouns import Noun

from ... import hardware, kit, models
from ...spec import Ask, Spec, World, given
from ...template import convention, template
from ..chip_givens import CONV_EN, CONV_ZH
from ..model_params import nominal_phi

SWITCHED = ("h100_sxm", "h200", "b200")  # NVSwitch nodes of 8: NVLS needs the switch
BIG_DENSE = ("llama2_70b", "llama3_70b", "llama3_405b", "gpt3_175b")
ALPHAS_US = (2, 3, 4, 5, 6, 8, 10)
TP_CONV_EN = ("Two all-reduces per layer (after attention and after the MLP), of the step's activations (batch × "
              "d_model × 2 B, bf16). β is one GPU's one-way NVLink bandwidth; α the latency of one all-reduce step "
              "(2-10 µs on NVLink: a measured figure). µs = 10⁻⁶ s, ms = 10⁻³ s, GB/s = 10⁹ B/s.")
TP_CONV_ZH = ("每层两次 AllReduce（注意力之后、MLP 之后），对象是这一步的激活（batch × d_model × 2 B，bf16）。β 是单卡 NVLink "
              "单向带宽；α 是 AllReduce 每一步的延迟（NVLink 上 2-10 µs，为实测值）。µs = 10⁻⁶ s，ms = 10⁻³ s，"
              "GB/s = 10⁹ B/s。")


def _chip(rng):
    gpu = hardware.draw(rng, [hardware.get(k) for k in SWITCHED])
    return gpu, hardware.nvlink_of(gpu)


def _beta(link, name: str = "beta"):
    return given(name, f"{link.name}, one way per GPU", f"{link.name}，每卡单向", link.one_way, "bandwidth", "GB/s")


@template("communication.tp_decode_allreduce", topic="communication", title="TP decode: all-reduce time per step",
          title_zh="TP decode：每步的 AllReduce 时间", difficulty=3, target_seconds=150,
          source="shoeybi2019, patarasuk2009, trtllm_allreduce")
def tp_decode_allreduce(rng):
    m = models.get(rng.choice(BIG_DENSE))
    gpu, link = _chip(rng)
    n_tp, batch = rng.choice((4, 8)), rng.choice((1, 1, 2, 4, 8, 16, 32))
    alpha = rng.choice(ALPHAS_US) * 1e-6
    # one-shot drawn here, or the learner's convention (latency_steps=one_shot): then the convention sets it
    chosen = convention("latency_steps") == "one_shot"
    one_shot = rng.random() < 0.4 or chosen
    inputs = {"layers": m.layers, "batch": batch, "d_model": m.d_model, "bytes_per_elem": 2, "n_tp": n_tp,
              "alpha": alpha, "beta": link.one_way, **({} if chosen else {"latency_steps": 1 if one_shot else 0})}
    how_en = "one-shot all-reduces (2 latency steps each, whatever n)" if one_shot else "ring all-reduces"
    how_zh = "one-shot AllReduce（每次 2 个延迟步，与 n 无关）" if one_shot else "环形 AllReduce"
    return Spec(
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "layers"), kit.model(m, "d_model"),
                given("batch", "Sequences decoded together B", "一起 decode 的序列数 B", batch),
                given("n_tp", "Tensor-parallel GPUs N_tp", "张量并行卡数 N_tp", n_tp),
                given("alpha", "Latency per all-reduce step α", "AllReduce 每步延迟 α", alpha, "time", "µs"),
                _beta(link)),
        asks=(Ask(formula="tp_decode_comm_time", inputs=inputs, unit="ms",
                  prompt_en=f"{m.name} decodes a batch of {batch} in bf16 with TP-{n_tp} on {gpu.name} GPUs, using "
                            f"{how_en}. How long does one decode step spend in tensor-parallel all-reduces, in ms?",
                  prompt_zh=f"{m.name} 在 {gpu.name} 上以 TP-{n_tp}、bf16 decode 一个 batch {batch} 的批次，使用{how_zh}。"
                            "一个 decode 步花在张量并行 AllReduce 上的时间是多少（ms）？"),),
        conventions_en=TP_CONV_EN, conventions_zh=TP_CONV_ZH,
        world=World(model=m, gpu=gpu, tp=n_tp, precision="bf16"),
    )


@template("communication.nvls_allreduce", topic="communication", title="All-reduce with in-switch reduction (NVLS)",
          title_zh="交换机内归约（NVLS）的 AllReduce", difficulty=2, target_seconds=90, source="austin2025, trtllm_allreduce")
def nvls_allreduce(rng):
    gpu, link = _chip(rng)
    n = rng.choice((4, 8))
    size = rng.choice((16, 32, 64, 128, 256, 512, 1024)) * 1e6
    alpha = rng.choice(ALPHAS_US) * 1e-6
    return Spec(
        givens=(given("m", "Message per GPU m", "每卡消息大小 m", size, "bytes", "MB"),
                given("n", "GPUs in the all-reduce", "参与 AllReduce 的卡数", n, counts=Noun.GPUS),
                given("alpha", "Latency α", "延迟 α", alpha, "time", "µs"), _beta(link)),
        asks=(Ask(formula="nvls_allreduce_time", unit="µs", extras={"n": n},
                  inputs={"m": size, "alpha": alpha, "beta": link.one_way},
                  prompt_en=f"{n} {gpu.name} GPUs all-reduce {size / 1e6:g} MB each through the NVSwitch with NVLink "
                            "SHARP (NVLS): the switch adds the contributions. In theory, how long does it take, in µs?",
                  prompt_zh=f"{n} 张 {gpu.name} 通过 NVSwitch 用 NVLink SHARP（NVLS）对每卡 {size / 1e6:g} MB 做 AllReduce："
                            "加法由交换机完成。理论上需要多少时间（µs）？"),),
        conventions_en="MB = 10⁶ B, GB/s = 10⁹ B/s, µs = 10⁻⁶ s. The theoretical in-switch reduction (measured gains "
                       "on H100 are ~30 %).",
        conventions_zh="MB = 10⁶ B，GB/s = 10⁹ B/s，µs = 10⁻⁶ s。按理论上的交换机内归约计（H100 实测提升约 30%）。",
        world=World(gpu=gpu, tp=n),
    )


@template("communication.tp_max_degree", topic="communication", title="Largest compute-bound TP degree",
          title_zh="仍为算力受限的最大 TP 度", difficulty=2, target_seconds=90, source="austin2025")
def tp_max_degree(rng):
    m = rng.choice(models.DENSE)
    gpu, link = _chip(rng)
    dtype = rng.choice(("bf16", "fp8"))
    peak = gpu.bf16 if dtype == "bf16" else gpu.fp8
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("ffn", "MLP inner size F", "MLP 中间维度 F", m.ffn),
                _beta(link, "link_bandwidth"), kit.named_peak(gpu, dtype)),
        asks=(Ask(formula="tp_max_degree", unit="", inputs={"ffn": m.ffn, "link_bandwidth": link.one_way,
                                                            "peak_flops": peak},
                  prompt_en=f"Training {m.name} (F = {m.ffn:,}) on {gpu.name} GPUs in {dtype}, up to what tensor-parallel "
                            "degree do the MLP matmuls still hide their activation all-gather and reduce-scatter over "
                            "NVLink?",
                  prompt_zh=f"在 {gpu.name} 上以 {dtype} 训练 {m.name}（F = {m.ffn:,}），张量并行度最大到多少时，MLP 矩阵乘仍能"
                            "藏住激活在 NVLink 上的 AllGather 和 ReduceScatter？"),),
        conventions_en=f"{CONV_EN} The link bandwidth is one way.",
        conventions_zh=f"{CONV_ZH}链路带宽按单向计。",
        world=World(model=m, gpu=gpu, precision=dtype),
    )


@template("parallelism.fsdp_min_tokens", topic="parallelism", title="FSDP: the per-GPU batch that hides its traffic",
          title_zh="FSDP：能藏住通信的每卡 batch", difficulty=2, target_seconds=120, source="austin2025, zhao2023")
def fsdp_min_tokens(rng):
    gpu, link = _chip(rng)
    n = rng.choice((8, 16, 32, 64, 128, 256, 512))
    mfu = rng.choice((0.35, 0.4, 0.45, 0.5, 0.42))  # at most 50 % (realism: a training MFU)
    inside = n == 8 and rng.random() < 0.5
    bw = link.one_way if inside else rng.choice((50e9, 100e9))
    where_en = "inside one NVLink node" if inside else f"across nodes, one {bw * 8 / 1e9:.0f} Gb/s NIC per GPU"
    where_zh = "在一个 NVLink 节点内" if inside else f"跨节点，每卡一块 {bw * 8 / 1e9:.0f} Gb/s 网卡"
    return Spec(
        givens=(kit.named_peak(gpu, "bf16"), given("mfu", "MFU", "MFU", mfu, "ratio"),
                given("link_bandwidth", "Link per GPU, one way", "每卡链路，单向", bw, "bandwidth", "GB/s"),
                given("n", "GPUs the weights are sharded over N", "权重切分到的卡数 N", n)),
        asks=(Ask(formula="fsdp_min_tokens_per_gpu", unit="", inputs={"peak_flops": gpu.bf16, "mfu": mfu,
                                                                      "link_bandwidth": bw, "n": n},
                  prompt_en=f"You shard a model with FSDP over {n} {gpu.name} GPUs {where_en}, bf16 weights and "
                            f"gradients, at {mfu:.0%} MFU. Above how many tokens per GPU per step does a layer's compute "
                            "hide its all-gathers and reduce-scatter (perfect overlap)?",
                  prompt_zh=f"你用 FSDP 把模型切分到 {n} 张 {gpu.name} 上（{where_zh}），权重和梯度为 bf16，MFU 为 {mfu:.0%}。"
                            "每卡每步多少个 token 以上，一层的计算才能藏住它的 AllGather 和 ReduceScatter（完全重叠）？"),),
        conventions_en=f"{CONV_EN} Training FLOPs 6Φ per token; the link bandwidth is one way.",
        conventions_zh=f"{CONV_ZH}训练 FLOPs 每 token 6Φ；链路带宽按单向计。",
        world=World(gpu=gpu, precision="bf16"),
    )


@template("parallelism.hsdp_comm_bytes", topic="parallelism", title="HSDP: bytes each GPU sends per step",
          title_zh="HSDP：每张卡每步发送的字节数", difficulty=2, target_seconds=120, source="zhao2023")
def hsdp_comm_bytes(rng):
    m = models.get(rng.choice(BIG_DENSE + ("llama3_8b", "mistral_7b")))
    s = rng.choice((8, 8, 16, 64, 72))
    r = rng.choice((2, 4, 8, 16, 32, 64, 128, 256, 512))
    phi = nominal_phi(m)
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("phi", "Parameters Φ", "参数量 Φ", phi),
                given("bytes_per_param", "Bytes per weight / gradient (bf16)", "每个权重 / 梯度的字节数（bf16）", 2,
                      "bytes", "B"),
                given("shard_size", "Shard group s (GPUs)", "分片组大小 s（卡数）", s),
                given("replicas", "Replicas of the group r", "分片组的副本数 r", r)),
        asks=(Ask(formula="hsdp_comm_bytes", unit="GB",
                  prompt_en=f"You train {m.name} with hybrid sharding: FSDP inside groups of {s} GPUs, {r} replicas of "
                            "the group. How many bytes does each GPU send per step (in-group all-gathers and "
                            "reduce-scatter plus the cross-replica gradient all-reduce), in GB?",
                  prompt_zh=f"你用混合分片训练 {m.name}：{s} 张卡一组做 FSDP，共 {r} 个组副本。每张卡每步要发送多少字节"
                            "（组内 AllGather 与 ReduceScatter，加上跨副本的梯度 AllReduce），以 GB 表示？"),),
        conventions_en="Ring collectives; bf16 weights and gradients. GB = 10⁹ B.",
        conventions_zh="环形集合通信；权重和梯度为 bf16。GB = 10⁹ B。",
        world=World(model=m, n_dp=s * r),
    )


@template("communication.tp_decode_chain", topic="communication",
          title="Chain: TP decode at batch 1: ring → one-shot → the largest TP degree",
          title_zh="追问链：batch 1 的 TP decode：ring → one-shot → 最大 TP 度", difficulty=3, target_seconds=420,
          source="shoeybi2019, trtllm_allreduce, austin2025")
def tp_decode_chain(rng):
    m = models.get(rng.choice(BIG_DENSE))
    gpu, link = _chip(rng)
    n_tp = rng.choice((4, 8))
    alpha = rng.choice(ALPHAS_US) * 1e-6
    base = {"layers": m.layers, "batch": 1, "d_model": m.d_model, "bytes_per_elem": 2, "n_tp": n_tp, "alpha": alpha,
            "beta": link.one_way}
    return Spec(
        scenario_en=f"\"Why is TP-{n_tp} decode of {m.name} at batch 1 latency-bound? Does a one-shot / NVLS "
                    f"all-reduce help? How far could TP go in training?\" {gpu.name} GPUs, bf16.",
        scenario_zh=f"「为什么 {m.name} 在 batch 1 下的 TP-{n_tp} decode 受延迟限制？one-shot / NVLS AllReduce 有用吗？"
                    f"训练时 TP 最多能开到多大？」{gpu.name}，bf16。",
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "layers"), kit.model(m, "d_model"),
                given("ffn", "MLP inner size F", "MLP 中间维度 F", m.ffn),
                given("n_tp", "Tensor-parallel GPUs N_tp", "张量并行卡数 N_tp", n_tp),
                given("alpha", "Latency per all-reduce step α", "AllReduce 每步延迟 α", alpha, "time", "µs"),
                _beta(link), kit.named_peak(gpu, "bf16")),
        asks=(
            Ask(formula="tp_decode_comm_time", unit="ms", inputs={**base, "latency_steps": 0},
                prompt_en="With ring all-reduces, how long does one batch-1 decode step spend in TP all-reduces, in ms?",
                prompt_zh="用环形 AllReduce 时，一个 batch 1 的 decode 步花在 TP AllReduce 上的时间是多少（ms）？"),
            Ask(formula="tp_decode_comm_time", unit="ms", inputs={**base, "latency_steps": 1},
                prompt_en="With one-shot (or NVLS) all-reduces, 2 latency steps each whatever n, how long, in ms?",
                prompt_zh="改用 one-shot（或 NVLS）AllReduce，每次只有 2 个延迟步、与 n 无关，需要多少时间（ms）？"),
            Ask(formula="tp_max_degree", unit="", inputs={"ffn": m.ffn, "link_bandwidth": link.one_way,
                                                          "peak_flops": gpu.bf16},
                prompt_en="In training (large batch), up to what TP degree do the MLP matmuls hide their all-gather "
                          "and reduce-scatter over this NVLink?",
                prompt_zh="训练时（大批次），TP 度最大到多少，MLP 矩阵乘仍能藏住在这条 NVLink 上的 AllGather 和 ReduceScatter？"),
        ),
        conventions_en=f"{CONV_EN} {TP_CONV_EN}", conventions_zh=f"{CONV_ZH}{TP_CONV_ZH}",
        world=World(model=m, gpu=gpu, tp=n_tp, precision="bf16"),
    )


@template("parallelism.fsdp_hsdp_chain", topic="parallelism", title="Chain: FSDP threshold → HSDP shard group",
          title_zh="追问链：FSDP 阈值 → HSDP 分片组", difficulty=3, target_seconds=300, source="austin2025, zhao2023")
def fsdp_hsdp_chain(rng):
    gpu, link = _chip(rng)
    m = models.get(rng.choice(BIG_DENSE + ("llama3_8b", "mistral_7b")))
    r = rng.choice((4, 8, 16, 32, 64, 128))
    n = 8 * r
    mfu = rng.choice((0.35, 0.4, 0.45, 0.5))
    nic = rng.choice((50e9, 100e9))
    phi = nominal_phi(m)
    return Spec(
        scenario_en=f"\"Shard {m.name} over all {n} {gpu.name} GPUs, or within each 8-GPU node and replicate?\" "
                    f"One {nic * 8 / 1e9:.0f} Gb/s NIC per GPU across nodes, NVLink inside; bf16 weights and "
                    f"gradients, {mfu:.0%} MFU.",
        scenario_zh=f"「把 {m.name} 切分到全部 {n} 张 {gpu.name} 上，还是每个 8 卡节点内切分、节点间复制？」跨节点每卡一块 "
                    f"{nic * 8 / 1e9:.0f} Gb/s 网卡，节点内走 NVLink；权重和梯度为 bf16，MFU {mfu:.0%}。",
        givens=(given("model", "Model", "模型", m.name), given("phi", "Parameters Φ", "参数量 Φ", phi),
                kit.named_peak(gpu, "bf16"), given("mfu", "MFU", "MFU", mfu, "ratio"),
                given("link_bandwidth", "NIC per GPU, one way", "每卡网卡，单向", nic, "bandwidth", "GB/s"),
                given("n", "All GPUs N", "全部卡数 N", n),
                given("bytes_per_param", "Bytes per weight / gradient (bf16)", "每个权重 / 梯度的字节数（bf16）", 2,
                      "bytes", "B")),
        asks=(
            Ask(formula="fsdp_min_tokens_per_gpu", unit="",
                inputs={"peak_flops": gpu.bf16, "mfu": mfu, "link_bandwidth": nic, "n": n, "bytes_per_param": 2},
                prompt_en=f"Sharded over all {n} GPUs across the NICs, above how many tokens per GPU per step does "
                          "compute hide FSDP's traffic?",
                prompt_zh=f"切分到全部 {n} 张卡、跨网卡通信时，每卡每步多少个 token 以上计算才能藏住 FSDP 的通信？"),
            Ask(formula="hsdp_comm_bytes", unit="GB",
                inputs={"phi": phi, "bytes_per_param": 2, "shard_size": 8, "replicas": r},
                prompt_en=f"Instead shard within each node (s = 8) and replicate over the {r} nodes (HSDP). How many "
                          "bytes does each GPU send per step, in GB?",
                prompt_zh=f"改为在每个节点内切分（s = 8），在 {r} 个节点之间复制（HSDP）。每张卡每步发送多少字节（GB）？"),
        ),
        conventions_en=f"{CONV_EN} Training FLOPs 6Φ per token; ring collectives; link bandwidths one way.",
        conventions_zh=f"{CONV_ZH}训练 FLOPs 每 token 6Φ；环形集合通信；链路带宽按单向计。",
        world=World(model=m, gpu=gpu, precision="bf16", n_dp=n),
    )


@template("communication.tp_scaling", topic="communication",
          title="Is this TP degree comms-bound? The largest TP degree → the verdict",
          title_zh="这个 TP 度受通信限制吗？最大 TP 度 → 判断", difficulty=2, target_seconds=150, source="austin2025")
def tp_scaling(rng):
    want_comms = rng.random() < 0.5
    for _ in range(50):  # redraw until a degree falls on the side this seed asks for (each side about half the seeds)
        m = rng.choice(models.DENSE)
        gpu, link = _chip(rng)
        dtype = rng.choice(("bf16", "fp8"))
        peak = gpu.bf16 if dtype == "bf16" else gpu.fp8
        y = m.ffn * link.one_way / peak
        # a degree clearly on one side (15 %+ from the limit), on the side this seed asks for when it can
        fits = [t for t in (2, 4, 8) if (t > 1.15 * y if want_comms else t < y / 1.15)]
        if fits:
            n_tp = rng.choice(fits)
            break
    else:
        raise RuntimeError("no TP degree on either side")  # unreachable: Llama-3-8B in fp8 is comms-bound at 8
    comms, compute = (Choice("comms-bound", ("comms bound", "communication-bound", "comm-bound"), "通信受限"),
                      Choice("compute-bound", ("compute bound",), "算力受限"))
    answer = "comms-bound" if n_tp > y else "compute-bound"
    return Spec(
        scenario_en=f"You train {m.name} (F = {m.ffn:,}) in {dtype} on {gpu.name} GPUs and consider TP-{n_tp} inside "
                    "the NVLink node.",
        scenario_zh=f"你在 {gpu.name} 上以 {dtype} 训练 {m.name}（F = {m.ffn:,}），考虑在 NVLink 节点内用 TP-{n_tp}。",
        givens=(given("model", "Model", "模型", m.name), given("ffn", "MLP inner size F", "MLP 中间维度 F", m.ffn),
                _beta(link, "link_bandwidth"), kit.named_peak(gpu, dtype),
                given("n_tp", "Tensor-parallel GPUs N_tp", "张量并行卡数 N_tp", n_tp)),
        asks=(Ask(formula="tp_max_degree", unit="", inputs={"ffn": m.ffn, "link_bandwidth": link.one_way,
                                                            "peak_flops": peak},
                  prompt_en="Up to what TP degree do the MLP matmuls hide their all-gather and reduce-scatter?",
                  prompt_zh="TP 度最大到多少时，MLP 矩阵乘仍能藏住 AllGather 和 ReduceScatter？"),
              Ask(choices=(comms, compute), answer=answer,
                  prompt_en=f"Is TP-{n_tp} comms-bound or compute-bound?",
                  prompt_zh=f"TP-{n_tp} 是通信受限还是算力受限？请回答「通信受限」或「算力受限」。",
                  explanation=(f"TP is comms-bound when N_tp exceeds F × W / C = {y:.3g} (step 1): the MLP's matmuls "
                               "shrink as 1/N_tp while its activation traffic per GPU does not",
                               f"  N_tp = {n_tp} {'>' if n_tp > y else '<'} {y:.3g}: {answer}"),
                  explanation_zh=(f"N_tp 超过 F × W / C = {y:.3g}（第 1 步）时 TP 受通信限制：MLP 的矩阵乘按 1/N_tp 缩小，"
                                  "而每卡的激活通信不变",
                                  f"  N_tp = {n_tp} {'>' if n_tp > y else '<'} {y:.3g}：{'通信受限' if n_tp > y else '算力受限'}"),
                  takeaway="a wider MLP or a slower chip allows more TP: fp8 doubles C and halves the degree NVLink "
                           "can hide, which is why TP stays at 8 or below.",
                  takeaway_zh="MLP 越宽或芯片越慢，能用的 TP 越大：fp8 让 C 翻倍，NVLink 能藏住的 TP 度就减半，所以 TP 不超过 8。",
                  card_formulas=("tp_max_degree",))),
        conventions_en=f"{CONV_EN} The link bandwidth is one way.",
        conventions_zh=f"{CONV_ZH}链路带宽按单向计。",
        world=World(model=m, gpu=gpu, tp=n_tp, precision=dtype),
    )
