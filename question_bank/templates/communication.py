"""Collective-communication templates (C§2): per-GPU bytes of ring collectives, α-β times, DDP and ZeRO-3 traffic."""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_quantity

from .. import models
from ..base import Ask, Ref, Spec, given, template
from .memory import cap, model_phi, phi_given, phi_text, unit_for, zh_model

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

BYTES_EN = ("Ring algorithms. M is the full tensor size on each GPU; 'bytes per GPU' = bytes each GPU sends "
            "(it receives as many). MB = 10⁶ B, GB = 10⁹ B.")
BYTES_ZH = "环形（Ring）算法。M 为每张卡上完整张量的大小；“每卡通信量”指每张卡发送的字节数（接收量相同）。MB = 10⁶ B，GB = 10⁹ B。"
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
    return given("m", "Message size M (per GPU)", "每卡消息大小 M", m, "bytes", _size_unit(m))


def _n_given(n: int):
    return given("n", "GPUs in the ring N", "参与通信的卡数 N", n)


def _alpha_beta_givens(alpha: float, beta: float) -> tuple:
    return (given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs"),
            given("beta", "Link bandwidth β (one-way)", "单向链路带宽 β", beta, "bandwidth", "GB/s"))


def _ab_text(alpha: float, beta: float) -> str:
    return f"α = {fmt_quantity(alpha, 'time', unit='µs')}, β = {fmt_quantity(beta, 'bandwidth', unit='GB/s')}"


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
          title_zh="集合通信每卡通信量", difficulty=2, target_seconds=60)
def collective_bytes(rng):
    name, formula, _, (use_en, use_zh) = COLLECTIVES[rng.choice(sorted(COLLECTIVES))]
    m, n = rng.choice(BIG_MESSAGES), rng.choice(RANKS)
    unit = _size_unit(m)
    return Spec(
        givens=(_m_given(m), _n_given(n)),
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{name} ({use_en}) over N = {n} GPUs, M = {_bytes_text(m)} per GPU. How many bytes "
                            f"does each GPU send, in {unit}?",
                  prompt_zh=f"{name}（{use_zh}），N = {n} 张卡，每卡 M = {_bytes_text(m)}。每张卡发送多少字节"
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
                            f"{_ab_text(alpha, beta)}。耗时多少（{unit}）？"),),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH,
    )


@template("communication.allreduce_time", topic="communication", title="Ring AllReduce time (α-β)",
          title_zh="Ring AllReduce 耗时（α-β 模型）", difficulty=2, target_seconds=120)
def allreduce_time(rng):
    return _time_spec(rng, "allreduce")


@template("communication.collective_time", topic="communication", title="ReduceScatter / AllGather / All-to-All time (α-β)",
          title_zh="ReduceScatter / AllGather / All-to-All 耗时（α-β 模型）", difficulty=2, target_seconds=90)
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
                            f"阶段，{_ab_text(alpha, beta)}；一次 P2P 传输耗时 α + M/β。发送耗时多少（{unit}）？"),),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH,
    )


# --------------------------------------------------------------------------- #
# Chains: DDP and ZeRO-3 traffic of a real model


def _model_comm_setup(rng):
    name, phi = model_phi(rng, models.DENSE)
    n, alpha, beta = rng.choice((8, 16, 32, 64, 128, 256, 512)), rng.choice(ALPHAS), rng.choice(BETAS)
    givens = (phi_given(phi), _n_given(n)) + _alpha_beta_givens(alpha, beta)
    full = formulas.get("gradient_bytes").evaluate(phi=phi, bytes_per_param=2)  # picks the time unit only
    return name, phi, n, alpha, beta, givens, full


@template("communication.ddp_chain", topic="communication", title="DDP: gradient bytes → AllReduce volume → AllReduce time",
          title_zh="DDP：梯度大小 → AllReduce 通信量 → AllReduce 耗时", difficulty=2, target_seconds=240)
def ddp_chain(rng):
    name, phi, n, alpha, beta, givens, full = _model_comm_setup(rng)
    unit = unit_for("allreduce_time", m=full, n=n, alpha=alpha, beta=beta)
    return Spec(
        scenario_en=f"{cap(name)} (Φ = {phi_text(phi)}) is trained with plain DDP on N = {n} GPUs; after each backward "
                    f"pass the bf16 gradients are averaged with one ring AllReduce ({_ab_text(alpha, beta)}).",
        scenario_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）在 N = {n} 张卡上用普通 DDP 训练；每次反向传播后用一次 Ring "
                    f"AllReduce 对 bf16 梯度求平均（{_ab_text(alpha, beta)}）。",
        givens=givens,
        asks=(Ask(formula="gradient_bytes", inputs={"phi": phi, "bytes_per_param": 2}, unit="GB",
                  prompt_en="How large is the full bf16 gradient, in GB?",
                  prompt_zh="完整的 bf16 梯度有多大（GB）？"),
              Ask(formula="allreduce_bytes", inputs={"m": Ref(0), "n": n}, unit="GB",
                  prompt_en="How many bytes does each GPU send in the ring AllReduce, in GB?",
                  prompt_zh="Ring AllReduce 中每张卡发送多少字节（GB）？"),
              Ask(formula="allreduce_time", inputs={"m": Ref(0), "n": n, "alpha": alpha, "beta": beta}, unit=unit,
                  prompt_en=f"How long does the AllReduce take in the α-β model, in {unit}?",
                  prompt_zh=f"按 α-β 模型，这次 AllReduce 耗时多少（{unit}）？")),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH,
    )


@template("communication.zero3_chain", topic="communication", title="ZeRO-3: weight bytes → AllGather → compare with DDP",
          title_zh="ZeRO-3：权重大小 → AllGather → 与 DDP 对比", difficulty=2, target_seconds=300)
def zero3_chain(rng):
    name, phi, n, alpha, beta, givens, full = _model_comm_setup(rng)
    unit = unit_for("allgather_time", m=full, n=n, alpha=alpha, beta=beta)
    return Spec(
        scenario_en=f"{cap(name)} (Φ = {phi_text(phi)}) is trained with ZeRO-3 (FSDP) over N = {n} GPUs. Each step "
                    "AllGathers the bf16 weights before using them and ReduceScatters the bf16 gradients "
                    f"({_ab_text(alpha, beta)}).",
        scenario_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）在 N = {n} 张卡上用 ZeRO-3（FSDP）训练。每一步在使用权重前先 "
                    f"AllGather bf16 权重，反向后对 bf16 梯度做 ReduceScatter（{_ab_text(alpha, beta)}）。",
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
        conventions_en=TIME_EN, conventions_zh=TIME_ZH,
    )
