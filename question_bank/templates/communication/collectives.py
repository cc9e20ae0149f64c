"""Collective-communication templates (C§2): per-GPU bytes of ring collectives, α-β times, DDP and ZeRO-3 traffic."""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_quantity

from ... import models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import LARGEST_GPU_BYTES, cap, model_phi, model_world, phi_given, phi_text, unit_for, zh_model

RANKS = (2, 4, 8, 16, 32, 64, 128, 256)
BIG_MESSAGES = (64e6, 128e6, 256e6, 512e6, 1e9, 2e9, 4e9, 8e9, 16e9)
MESSAGES = (1e6, 4e6, 16e6, 64e6, 256e6, 1e9)
ALPHAS = (1e-6, 2e-6, 5e-6, 10e-6, 20e-6)
BETAS = (25e9, 50e9, 100e9, 200e9, 400e9)

# key: (name, bytes formula, time formula, where it is used (en, zh))
COLLECTIVES = {
    "allreduce": ("AllReduce", "allreduce_bytes", "allreduce_time", ("DDP gradient sync", "DDP 梯度同步")),
    "reduce_scatter": ("ReduceScatter", "reduce_scatter_bytes", "reduce_scatter_time",
                       ("ZeRO-2/3 gradient sharding", "ZeRO-2/3 梯度切分")),
    "allgather": ("AllGather", "allgather_bytes", "allgather_time",
                  ("ZeRO-3 parameter gathering", "ZeRO-3 参数重建")),
    "alltoall": ("All-to-All", "alltoall_bytes", "alltoall_time", ("MoE token dispatch", "MoE 专家路由分发")),
}

# One reading of M: nccl-tests' "size", the full buffer - never one GPU's shard.
M_EN = ("M is the collective's full buffer, as nccl-tests counts its size: the whole tensor each GPU holds before an "
        "AllReduce, ReduceScatter or All-to-All, and the whole gathered tensor after an AllGather (each GPU "
        "contributes M/N), never one GPU's shard.")
M_ZH = ("M 是集合通信的完整缓冲区大小（与 nccl-tests 的 size 口径一致）：AllReduce、ReduceScatter、All-to-All 之前每张卡上的"
        "完整张量，AllGather 之后拼好的完整张量（每张卡贡献 M/N），而不是单卡的分片。")
BYTES_EN = ("Ring algorithms. " + M_EN + " 'Bytes per GPU' = bytes each GPU sends "
            "(it receives as many). MB = 10⁶ B, GB = 10⁹ B.")
BYTES_ZH = "环形（Ring）算法。" + M_ZH + "“每卡通信量”指每张卡发送的字节数（接收量相同）。MB = 10⁶ B，GB = 10⁹ B。"
TIME_EN = ("α-β model: each message step costs the latency α plus (bytes sent in that step) / β, and a ring "
           "collective is a sequence of such steps; β is the one-way link bandwidth per GPU. No overlap with "
           "compute. MB = 10⁶ B, GB = 10⁹ B, GB/s = 10⁹ B/s.")
TIME_ZH = ("α-β 模型：每一步消息传输耗时为延迟 α 加上（该步发送字节数）/ β，环形集合通信由若干这样的步组成；"
           "β 为每卡单向链路带宽。不与计算重叠。MB = 10⁶ B，GB = 10⁹ B，GB/s = 10⁹ B/s。")


def _size_unit(m: float) -> str:
    return "GB" if m >= 1e9 else "MB"


def _bytes_text(m: float) -> str:
    return fmt_quantity(m, "bytes", unit=_size_unit(m))


def _m_given(m: float):
    return given("m", "Message size M (full buffer)", "消息大小 M（完整缓冲区）", m, "bytes", _size_unit(m))


def _n_given(n: int):
    return given("n", "GPUs in the ring N", "参与通信的卡数 N", n)


def _alpha_beta_givens(alpha: float, beta: float) -> tuple:
    return (given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs"),
            given("beta", "Link bandwidth β (one-way)", "单向链路带宽 β", beta, "bandwidth", "GB/s"))


def _ab_text(alpha: float, beta: float, sep: str = ", ") -> str:
    """``α = 1 µs, β = 25 GB/s`` (in Chinese, ``sep`` "，")."""
    return f"α = {fmt_quantity(alpha, 'time', unit='µs')}{sep}β = {fmt_quantity(beta, 'bandwidth', unit='GB/s')}"


# --------------------------------------------------------------------------- #
# Bytes per GPU


@template("communication.allreduce_bytes_given", topic="communication", title="Ring AllReduce bytes per GPU (formula given)",
          title_zh="Ring AllReduce 每卡通信量（给出公式）", difficulty=1, target_seconds=45)
def allreduce_bytes_given(rng):
    m, n = rng.choice(BIG_MESSAGES), rng.choice(RANKS)
    unit = _size_unit(m)
    return Spec(
        givens=(_m_given(m), _n_given(n)),
        asks=(Ask(formula="allreduce_bytes", unit=unit,
                  prompt_en=f"A ring AllReduce of M = {_bytes_text(m)} runs over N = {n} GPUs. It is a "
                            "ReduceScatter followed by an AllGather, and each phase sends (N − 1)/N × M per GPU. "
                            f"How many bytes does each GPU send in total, in {unit}?",
                  prompt_zh=f"在 N = {n} 张卡上对 M = {_bytes_text(m)} 做 Ring AllReduce。它由 ReduceScatter 和 "
                            "AllGather 两个阶段组成，每个阶段每卡发送 (N − 1)/N × M。每张卡一共发送多少字节"
                            f"（{unit}）？"),),
        conventions_en=BYTES_EN, conventions_zh=BYTES_ZH,
    )


@template("communication.collective_bytes", topic="communication", title="Bytes per GPU of a ring collective",
          title_zh="集合通信每卡通信量", difficulty=2, target_seconds=60, conventions=("ring_factor",))
def collective_bytes(rng):
    name, formula, _, (use_en, use_zh) = COLLECTIVES[rng.choice(sorted(COLLECTIVES))]
    m, n = rng.choice(BIG_MESSAGES), rng.choice(RANKS)
    unit = _size_unit(m)
    return Spec(
        givens=(_m_given(m), _n_given(n)),
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{name} ({use_en}) over N = {n} GPUs, M = {_bytes_text(m)} (the full buffer). How many bytes "
                            f"does each GPU send, in {unit}?",
                  prompt_zh=f"{name}（{use_zh}），N = {n} 张卡，M = {_bytes_text(m)}（完整缓冲区）。每张卡发送多少字节"
                            f"（{unit}）？"),),
        conventions_en=BYTES_EN, conventions_zh=BYTES_ZH,
    )


# --------------------------------------------------------------------------- #
# α-β times


def _time_spec(rng, key: str) -> Spec:
    name, _, formula, (use_en, use_zh) = COLLECTIVES[key]
    m, n, alpha, beta = rng.choice(MESSAGES), rng.choice(RANKS[1:]), rng.choice(ALPHAS), rng.choice(BETAS)
    unit = unit_for(formula, m=m, n=n, alpha=alpha, beta=beta)
    return Spec(
        givens=(_m_given(m), _n_given(n)) + _alpha_beta_givens(alpha, beta),
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"Ring {name} ({use_en}) of M = {_bytes_text(m)} over N = {n} GPUs with "
                            f"{_ab_text(alpha, beta)}. How long does it take, in {unit}?",
                  prompt_zh=f"在 N = {n} 张卡上对 M = {_bytes_text(m)} 做 Ring {name}（{use_zh}），"
                            f"{_ab_text(alpha, beta, '，')}。耗时多少（{unit}）？"),),
        conventions_en=f"{TIME_EN} {M_EN}", conventions_zh=f"{TIME_ZH}{M_ZH}",
    )


@template("communication.allreduce_time", topic="communication", title="Ring AllReduce time (α-β)",
          title_zh="Ring AllReduce 耗时（α-β 模型）", difficulty=2, target_seconds=120, conventions=("ring_factor",))
def allreduce_time(rng):
    return _time_spec(rng, "allreduce")


@template("communication.collective_time", topic="communication", title="ReduceScatter / AllGather / All-to-All time (α-β)",
          title_zh="ReduceScatter / AllGather / All-to-All 耗时（α-β 模型）", difficulty=2, target_seconds=90, conventions=("ring_factor",))
def collective_time(rng):
    return _time_spec(rng, rng.choice(("reduce_scatter", "allgather", "alltoall")))


@template("communication.p2p_time", topic="communication", title="Pipeline P2P send time (α-β)",
          title_zh="流水线 P2P 发送耗时（α-β 模型）", difficulty=1, target_seconds=45)
def p2p_time(rng):
    m = rng.choice((4e6, 8e6, 16e6, 32e6, 64e6, 128e6, 256e6))
    alpha, beta = rng.choice(ALPHAS), rng.choice(BETAS)
    unit = unit_for("p2p_time", m=m, alpha=alpha, beta=beta)
    return Spec(
        givens=(given("m", "Activation message M", "激活值消息大小 M", m, "bytes", "MB"),)
        + _alpha_beta_givens(alpha, beta),
        asks=(Ask(formula="p2p_time", unit=unit,
                  prompt_en=f"A pipeline stage sends one micro-batch's activations (M = {_bytes_text(m)}) to the "
                            f"next stage with a point-to-point Send/Recv, {_ab_text(alpha, beta)}; a P2P transfer "
                            f"costs α + M/β. How long does the send take, in {unit}?",
                  prompt_zh=f"流水线的一个阶段用点对点 Send/Recv 把一个微批次的激活值（M = {_bytes_text(m)}）发给下一"
                            f"阶段，{_ab_text(alpha, beta, '，')}；一次 P2P 传输耗时 α + M/β。发送耗时多少（{unit}）？"),),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH,
    )


# --------------------------------------------------------------------------- #
# Chains: DDP and ZeRO-3 traffic of a real model


def _model_comm_setup(rng, state: str):
    """A model and N whose training ``state`` ("train": DDP's full 16Φ; "zero3": 16Φ/N) could live on a real GPU."""
    while True:
        name, phi = model_phi(rng, models.DENSE)
        n, alpha, beta = rng.choice((8, 16, 32, 64, 128, 256, 512)), rng.choice(ALPHAS), rng.choice(BETAS)
        if formulas.get("train_static_bytes").evaluate(phi=phi) / (n if state == "zero3" else 1) <= LARGEST_GPU_BYTES:
            break
    givens = (phi_given(phi), _n_given(n)) + _alpha_beta_givens(alpha, beta)
    full = formulas.get("weights_bytes").evaluate(phi=phi, bytes_per_param=2)  # picks the time unit only
    return name, phi, n, alpha, beta, givens, full


def _comm_world(name: str, phi: float, n: int, state: str) -> World:
    return model_world(name, phi, holds=(state,), n_dp=n)


@template("communication.ddp_chain", topic="communication", title="DDP: gradient bytes → AllReduce volume → AllReduce time",
          title_zh="DDP：梯度大小 → AllReduce 通信量 → AllReduce 耗时", difficulty=2, target_seconds=240, conventions=("ring_factor",))
def ddp_chain(rng):
    name, phi, n, alpha, beta, givens, full = _model_comm_setup(rng, "train")
    unit = unit_for("allreduce_time", m=full, n=n, alpha=alpha, beta=beta)
    return Spec(
        scenario_en=f"{cap(name)} (Φ = {phi_text(phi)}) is trained with plain DDP on N = {n} GPUs; after each backward "
                    f"pass the bf16 gradients are averaged with one ring AllReduce ({_ab_text(alpha, beta)}).",
        scenario_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）在 N = {n} 张卡上用普通 DDP 训练；每次反向传播后用一次 Ring "
                    f"AllReduce 对 bf16 梯度求平均（{_ab_text(alpha, beta, '，')}）。",
        givens=givens,
        asks=(Ask(formula="weights_bytes", inputs={"phi": phi, "bytes_per_param": 2}, unit="GB",
                  explanation=("The gradient holds one bf16 value (2 B) per parameter: the size of the bf16 weights.",),
                  explanation_zh=("梯度每个参数一个 bf16 值（2 B）：和 bf16 权重一样大。",),
                  prompt_en="How large is the full bf16 gradient, in GB?",
                  prompt_zh="完整的 bf16 梯度有多大（GB）？"),
              Ask(formula="allreduce_bytes", inputs={"m": Ref(0), "n": n}, unit="GB",
                  prompt_en="How many bytes does each GPU send in the ring AllReduce, in GB?",
                  prompt_zh="Ring AllReduce 中每张卡发送多少字节（GB）？"),
              Ask(formula="allreduce_time", inputs={"m": Ref(0), "n": n, "alpha": alpha, "beta": beta}, unit=unit,
                  prompt_en=f"How long does the AllReduce take in the α-β model, in {unit}?",
                  prompt_zh=f"按 α-β 模型，这次 AllReduce 耗时多少（{unit}）？")),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH, world=_comm_world(name, phi, n, "train"),
    )


@template("communication.zero3_chain", topic="communication", title="ZeRO-3: weight bytes → AllGather → compare with DDP",
          title_zh="ZeRO-3：权重大小 → AllGather → 与 DDP 对比", difficulty=2, target_seconds=300, conventions=("ring_factor",))
def zero3_chain(rng):
    name, phi, n, alpha, beta, givens, full = _model_comm_setup(rng, "zero3")
    unit = unit_for("allgather_time", m=full, n=n, alpha=alpha, beta=beta)
    return Spec(
        scenario_en=f"{cap(name)} (Φ = {phi_text(phi)}) is trained with ZeRO-3 (FSDP) over N = {n} GPUs. Each step "
                    "AllGathers the bf16 weights before using them and ReduceScatters the bf16 gradients "
                    f"({_ab_text(alpha, beta)}).",
        scenario_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）在 N = {n} 张卡上用 ZeRO-3（FSDP）训练。每一步在使用权重前先 "
                    f"AllGather bf16 权重，反向后对 bf16 梯度做 ReduceScatter（{_ab_text(alpha, beta, '，')}）。",
        givens=givens,
        asks=(Ask(formula="weights_bytes", inputs={"phi": phi, "bytes_per_param": 2}, unit="GB",
                  prompt_en="How large are the full bf16 weights, in GB?",
                  prompt_zh="完整的 bf16 权重有多大（GB）？"),
              Ask(formula="allgather_bytes", inputs={"m": Ref(0), "n": n}, unit="GB",
                  prompt_en="Gathering the full weights once: how many bytes does each GPU send, in GB?",
                  prompt_zh="完整收集一次权重：每张卡发送多少字节（GB）？"),
              Ask(formula="allgather_time", inputs={"m": Ref(0), "n": n, "alpha": alpha, "beta": beta}, unit=unit,
                  prompt_en=f"How long does that AllGather take in the α-β model, in {unit}?",
                  prompt_zh=f"按 α-β 模型，这次 AllGather 耗时多少（{unit}）？"),
              Ask(formula="allreduce_time", inputs={"m": Ref(0), "n": n, "alpha": alpha, "beta": beta},
                  unit=unit,
                  prompt_en="The bf16 gradients have the same size as the weights. For comparison, how long would "
                            f"a plain-DDP ring AllReduce of them take, in {unit}?",
                  prompt_zh="bf16 梯度与权重大小相同。作为对比，若用普通 DDP 对梯度做 Ring AllReduce，"
                            f"耗时多少（{unit}）？")),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH, world=_comm_world(name, phi, n, "zero3"),
    )


# --------------------------------------------------------------------------- #
# Derive it: the traffic of a parallelism scheme from the scenario alone

TP_EN = ("Megatron-LM tensor parallelism, no sequence parallelism: in the forward pass the attention block "
         "(column-parallel QKV, row-parallel output projection) and the MLP (column-parallel, then row-parallel) "
         "each end with one ring AllReduce of the layer's full b × s × h activation; the backward pass has two more. "
         "bf16 activations (2 B). 'Bytes per GPU' = bytes each GPU sends. MB = 10⁶ B, GB = 10⁹ B.")
TP_ZH = ("Megatron-LM 张量并行，不使用序列并行：前向传播中，注意力块（QKV 列并行、输出投影行并行）和 MLP（先列并行、"
         "再行并行）各以一次 Ring AllReduce 结束，对象是该层完整的 b × s × h 激活值；反向传播还有另外两次。激活值为 "
         "bf16（2 B）。“每卡通信量”指每张卡发送的字节数。MB = 10⁶ B，GB = 10⁹ B。")


@template("communication.tp_layer_bytes", topic="communication",
          title="Tensor-parallel AllReduce bytes per layer (derive it)",
          title_zh="张量并行每层 AllReduce 通信量（自行推导）", difficulty=3, target_seconds=150)
def tp_layer_bytes(rng):
    model = rng.choice(models.DENSE)
    s = rng.choice([s for s in (1024, 2048, 4096, 8192) if s <= model.context])
    b, n_tp = rng.choice([b for b in (1, 2, 4, 8) if s * b <= 16384]), rng.choice((2, 4, 8))
    inputs = {"s": s, "b": b, "h": model.d_model, "bytes_per_elem": 2, "n_tp": n_tp}
    unit = unit_for("tp_allreduce_bytes_layer", **inputs)
    return Spec(
        givens=(given("s", "Sequence length s", "序列长度 s", s), given("b", "Micro-batch size b", "微批次大小 b", b),
                given("h", "Hidden size h", "隐藏维度 h", model.d_model),
                given("bytes_per_elem", "Bytes per activation element (bf16)", "每个激活值元素字节数（bf16）", 2,
                      "bytes", "B"),
                given("n_tp", "Tensor-parallel GPUs N_tp", "张量并行卡数 N_tp", n_tp)),
        asks=(Ask(formula="tp_allreduce_bytes_layer", inputs=inputs, unit=unit,
                  prompt_en=f"{model.name} (h = {model.d_model}) is trained with tensor parallelism over N_tp = "
                            f"{n_tp} GPUs (pipeline and data parallelism spread the rest of the job), sequence length "
                            f"s = {s}, micro-batch b = {b}. In the FORWARD pass, how "
                            f"many bytes does each GPU send for the tensor-parallel communication of ONE transformer "
                            f"layer, in {unit}?",
                  prompt_zh=f"{model.name}（h = {model.d_model}）在 N_tp = {n_tp} 张卡上做张量并行训练（其余部分由流水线并行和"
                            f"数据并行分担），序列长度 "
                            f"s = {s}，微批次 b = {b}。在前向传播中，单个 Transformer 层的张量并行通信每张卡发送多少"
                            f"字节（{unit}）？",
                  explanation=("One AllReduce moves the activation M = b × s × h × 2 B; a ring AllReduce sends "
                               "2 × (N_tp − 1)/N_tp × M per GPU; the forward pass of a layer has 2 of them.",),
                  explanation_zh=("一次 AllReduce 的对象是激活值 M = b × s × h × 2 B；Ring AllReduce 每卡发送 "
                                  "2 × (N_tp − 1)/N_tp × M；每层前向有 2 次。",)),),
        conventions_en=TP_EN, conventions_zh=TP_ZH, world=World(model=model, seq=s, tp=n_tp),
    )


ZERO3_EN = ("ZeRO-3 / FSDP over the data-parallel group, bf16 weights and gradients (2 B each). Each layer's weights are "
            "AllGathered before its forward pass and freed afterwards, AllGathered again before its backward pass, "
            "and the gradients are ReduceScattered so each GPU keeps its 1/N shard; the optimizer step is local. "
            "Ring collectives; 'bytes per GPU' = bytes each GPU sends. GB = 10⁹ B.")
ZERO3_ZH = ("ZeRO-3 / FSDP 在数据并行组内切分，权重和梯度均为 bf16（各 2 B）。每层权重在前向前 AllGather、用完即释放，"
            "反向前再 AllGather 一次；梯度做 ReduceScatter，每卡只保留自己的 1/N 分片；优化器更新在本地完成。"
            "环形集合通信；“每卡通信量”指每张卡发送的字节数。GB = 10⁹ B。")


@template("communication.zero3_step_bytes", topic="communication",
          title="ZeRO-3 bytes per GPU per step (derive it)",
          title_zh="ZeRO-3 每步每卡通信量（自行推导）", difficulty=3, target_seconds=150)
def zero3_step_bytes(rng):
    while True:  # 16Φ/N could live on a real GPU
        name, phi = model_phi(rng, models.DENSE)
        n = rng.choice((8, 16, 32, 64, 128, 256, 512, 1024))
        if formulas.get("zero3_bytes").evaluate(phi=phi, n_dp=n) <= LARGEST_GPU_BYTES:
            break
    return Spec(
        givens=(phi_given(phi), given("n", "Data-parallel GPUs N", "数据并行卡数 N", n),
                given("bytes_per_param", "Bytes per bf16 weight / gradient", "每个 bf16 权重 / 梯度的字节数", 2,
                      "bytes", "B")),
        asks=(Ask(formula="comm_bytes_zero3_step", unit="GB",
                  prompt_en=f"{cap(name)} (Φ = {phi_text(phi)}) is trained with ZeRO-3 over N = {n} GPUs. How many "
                            "bytes does each GPU send per training step for its ZeRO-3 collectives (weights and "
                            "gradients), in GB?",
                  prompt_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）在 N = {n} 张卡上用 ZeRO-3 训练。每个训练步中，"
                            "每张卡为 ZeRO-3 的集合通信（权重与梯度）发送多少字节（GB）？",
                  explanation=("Forward AllGather of the weights: (N − 1)/N × 2Φ; backward AllGather again: "
                               "(N − 1)/N × 2Φ; ReduceScatter of the gradients: (N − 1)/N × 2Φ.",
                               "DDP's one gradient AllReduce sends 2 × (N − 1)/N × 2Φ, so ZeRO-3 sends 1.5× as much."),
                  explanation_zh=("前向 AllGather 权重：(N − 1)/N × 2Φ；反向再 AllGather 一次：(N − 1)/N × 2Φ；"
                                  "梯度 ReduceScatter：(N − 1)/N × 2Φ。",
                                  "DDP 一次梯度 AllReduce 发送 2 × (N − 1)/N × 2Φ，所以 ZeRO-3 的通信量是它的 1.5 倍。")),),
        conventions_en=ZERO3_EN, conventions_zh=ZERO3_ZH, world=_comm_world(name, phi, n, "zero3"),
    )
