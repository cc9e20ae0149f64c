"""MFU / HFU templates: FLOPs per token, training FLOPs, MFU, HFU and training time.

MFU / HFU templates (C§3): FLOPs per token, total training FLOPs, MFU, HFU, training time, and whether a
measured MFU is good.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from ... import hardware, kit, models, realism
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import cap, model_phi, model_world, nominal_phi, phi_given, phi_text, unit_for, zh_after, zh_model

SEQ_LENS = (256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384, 32768, 65536, 131072)
TOKENS = (300e9, 1e12, 1.4e12, 2e12, 3e12, 5e12, 10e12, 15e12)
CLUSTERS = (256, 512, 1024, 2048, 4096, 8192, 16384)
# at most realism.MAX_MFU; 0.42 stands last, where 0.55 stood, so every other seed draws what it drew before
MFUS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.42)
# Training accelerators: dense bf16 peak from the hardware catalogue (the L40S is an inference card).
TRAIN_GPUS = tuple(g for g in hardware.with_dtype("bf16") if g.key != "l40s")
DAY = 86400.0

PEAK_EN = "Peak = dense bf16 tensor-core FLOP/s from the datasheet (no 2:4 sparsity); TFLOPS = 10¹² FLOP/s."
PEAK_ZH = "峰值取数据手册中 bf16 Tensor Core 稠密算力（不含 2:4 稀疏）；TFLOPS = 10¹² FLOP/s。"
MFU_EN = PEAK_EN + " MFU counts only the model's own FLOPs (no recomputation); ignore the attention term."
MFU_ZH = PEAK_ZH + "MFU 只计模型本身的计算量（不含重计算）；忽略注意力项。"
TIME_EN = MFU_EN + " 1 day = 86,400 s."
TIME_ZH = MFU_ZH + "1 天 = 86,400 s。"


# One reading of "including the attention term": PaLM's (Chowdhery et al. 2022, appendix B), not Kaplan's
# 6·L·s·d_model or the causal-halved count.
TRAIN_ATTN_EN = ("Dense Transformer, no recomputation. Count the attention term as PaLM does (Chowdhery et al. 2022, "
                 "appendix B): 6Φ + 12·L·a·h_head·s FLOPs per token, the score and value matmuls over the full s × s "
                 "matrix (not halved for the causal mask). GFLOP = 10⁹ FLOP, TFLOP = 10¹² FLOP.")
TRAIN_ATTN_ZH = ("稠密 Transformer，不做重计算。注意力项按 PaLM 的口径计（Chowdhery 等 2022，附录 B）：每 token "
                 "6Φ + 12·L·a·h_head·s FLOPs，注意力分数与加权求和两个矩阵乘按完整的 s × s 矩阵计（不因因果掩码减半）。"
                 "GFLOP = 10⁹ FLOP，TFLOP = 10¹² FLOP。")


def _tokens_text(d: float) -> str:
    return f"{fmt_number(d / 1e12)}T" if d >= 1e12 else f"{fmt_number(d / 1e9)}B"


def _peak_text(gpu) -> str:
    return fmt_quantity(gpu.bf16, "flop_rate", unit="TFLOPS")


def _cluster_givens(phi: float, gpu, n: int) -> tuple:
    return (phi_given(phi), given("n_gpus", "GPUs N", "GPU 卡数 N", n),
            kit.named_peak(gpu))


def _two_sig(x: float) -> float:
    return float(f"{x:.2g}")


# Published large runs report MFU up to ~50 % (PaLM 46 %, Llama 3 38-43 %, DeepSeek-V3 ~40 % in FP8 terms);
# with full recomputation HFU = 4/3 MFU, and no run reports an HFU above ~65 %, so a run whose problem counts
# HFU draws its MFU to at most 65 % × 3/4 = 48.75 %.  realism.check_utilisation checks both.
TOP_MFU, TOP_MFU_RECOMPUTE = 50, 48


def _target_mfu(rng, top: int) -> float:
    """An MFU of 25 % to ``top`` %, in whole per cent.  At the training ceiling the draw runs over 25-60 % and
    redraws above it, so a seed whose draw was already within published runs keeps its problem."""
    span = 60 if top == TOP_MFU else top
    while (pct := rng.randint(25, span)) > top:
        pass
    return pct / 100


def _throughput(target: float, n: int, gpu, phi: float, top: int) -> float:
    """Cluster tokens/s for an MFU of ``target``, shown to 2 significant figures but never past ``top`` % MFU."""
    per_token = formulas.get("train_flops").evaluate(phi=phi, tokens=1)
    tps = _two_sig(target * n * gpu.bf16 / per_token)
    if tps * per_token / (n * gpu.bf16) > top / 100:  # rounding up crossed the ceiling: round down instead
        exp = 10 ** (len(str(int(tps))) - 2)
        tps = float(int(top / 100 * n * gpu.bf16 / per_token / exp) * exp)
    return tps


# --------------------------------------------------------------------------- #
# FLOPs


@template("mfu.forward_flops", topic="mfu", title="Forward FLOPs per token", title_zh="每 token 前向计算量",
          difficulty=1, target_seconds=30)
def forward_flops(rng):
    name, phi = model_phi(rng)
    world = model_world(name, phi)
    m = world.model
    if m is not None and m.is_moe:  # FLOPs count the parameters a token goes through: the active ones
        phi, total = float(f"{m.flop_params:.3g}"), float(f"{m.total_params:.3g}")  # 12.9B of 46.7B
        return Spec(
            givens=(given("phi_total", "Total parameters (all experts)", "总参数量（全部专家）", total),
                    given("phi", "Active parameters per token Φ_active", "每个 token 的激活参数量 Φ_active", phi)),
            asks=(Ask(formula="forward_flops_per_token", unit="GFLOP", extras={"phi_total": total},
                      explanation=(f"top-{m.top_k} routing: each token goes through {m.top_k} of the {m.experts} "
                                   f"expert MLPs, so it multiplies through the {phi_text(phi)} active parameters, not "
                                   f"all {phi_text(total)}",),
                      explanation_zh=(f"top-{m.top_k} 路由：每个 token 只经过 {m.experts} 个专家 MLP 中的 {m.top_k} 个，"
                                      f"所以只与 {phi_text(phi)} 个激活参数相乘，而不是全部 {phi_text(total)}",),
                      prompt_en=f"{m.name} is a mixture of experts: {phi_text(total)} parameters in total, "
                                f"{phi_text(phi)} active per token (top-{m.top_k} of {m.experts} experts). Every "
                                "active parameter does one multiply-add (2 FLOPs) per token in the forward pass. How "
                                "many FLOPs does the forward pass of one token take, in GFLOP?",
                      prompt_zh=f"{m.name} 是混合专家模型：总参数 {phi_text(total)}，每个 token 激活 {phi_text(phi)}"
                                f"（{m.experts} 个专家中选 top-{m.top_k}）。前向传播中每个激活参数对每个 token 做一次乘加"
                                "（2 FLOPs）。一个 token 的前向计算量是多少（GFLOP）？"),),
            conventions_en="GFLOP = 10⁹ FLOP; the attention term and the router are ignored.",
            conventions_zh="GFLOP = 10⁹ FLOP；忽略注意力项和路由器。",
            world=world,
        )
    return Spec(
        givens=(phi_given(phi),),
        asks=(Ask(formula="forward_flops_per_token", unit="GFLOP",
                  prompt_en=f"{cap(name)} (Φ = {phi_text(phi)}): every parameter does one multiply-add (2 FLOPs) "
                            "per token in the forward pass. How many FLOPs does the forward pass of one token "
                            "take, in GFLOP?",
                  prompt_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）：前向传播中每个参数对每个 token 做一次乘加"
                            "（2 FLOPs）。一个 token 的前向计算量是多少（GFLOP）？"),),
        conventions_en="GFLOP = 10⁹ FLOP; the attention term is ignored.",
        conventions_zh="GFLOP = 10⁹ FLOP；忽略注意力项。",
        world=world,
    )


@template("mfu.train_flops_per_token", topic="mfu", title="Training FLOPs per token with the attention term",
          title_zh="每 token 训练计算量（含注意力项）", difficulty=2, target_seconds=120)
def train_flops_per_token(rng):
    model = rng.choice(models.DENSE)
    s = rng.choice([s for s in SEQ_LENS if s <= model.context])
    phi = nominal_phi(model)
    inputs = {"phi": phi, "l": model.layers, "a": model.n_heads, "s": s, "h_head": model.d_head}
    unit = unit_for("train_flops_per_token", **inputs)
    return Spec(
        givens=(phi_given(phi), given("l", "Layers L", "层数 L", model.layers),
                given("a", "Attention heads a", "注意力头数 a", model.n_heads),
                given("s", "Sequence length s", "序列长度 s", s),
                given("h_head", "Head dimension h_head", "每头维度 h_head", model.d_head)),
        asks=(Ask(formula="train_flops_per_token", unit=unit,
                  prompt_en=f"Training {model.name} (Φ = {phi_text(phi)}, L = {model.layers}, a = {model.n_heads} "
                            f"heads of {model.d_head}) at sequence length s = {s}: how many FLOPs per token does "
                            f"one training step (forward + backward) cost, INCLUDING the attention term, in {unit}?",
                  prompt_zh=f"以序列长度 s = {s} 训练 {model.name}（Φ = {phi_text(phi)}，L = {model.layers}，"
                            f"a = {model.n_heads} 个头，每头 {model.d_head} 维）：一次训练（前向 + 反向）每个 token "
                            f"的计算量是多少（含注意力项），单位 {unit}？"),),
        conventions_en=TRAIN_ATTN_EN, conventions_zh=TRAIN_ATTN_ZH, world=World(model=model, seq=s),
    )


@template("mfu.train_flops", topic="mfu", title="Total training FLOPs (6ΦD)", title_zh="训练总计算量（6ΦD）",
          difficulty=2, target_seconds=60, conventions=("flops_per_param_token",))
def train_flops(rng):
    name, phi = model_phi(rng, models.DENSE)
    d = rng.choice(TOKENS)
    return Spec(
        givens=(phi_given(phi), given("tokens", "Training tokens D", "训练 token 数 D", d)),
        asks=(Ask(formula="train_flops", unit="FLOP",
                  prompt_en=f"How many FLOPs does it take to train {name} (Φ = {phi_text(phi)}) on "
                            f"D = {_tokens_text(d)} tokens (forward + backward, ignoring attention), in FLOP?",
                  prompt_zh=f"在 D = {_tokens_text(d)} 个 token 上{zh_after('训练', name)}（Φ = {phi_text(phi)}）"
                            "总共需要多少 FLOPs（前向 + 反向，忽略注意力项）？"),),
        conventions_en="Dense Transformer. Answer in FLOP, e.g. 6.3e24.",
        conventions_zh="稠密 Transformer。答案以 FLOP 为单位，例如 6.3e24。",
        world=model_world(name, phi),
    )


# --------------------------------------------------------------------------- #
# MFU and HFU from a measured throughput


def _fits_cluster(phi: float, gpu, n: int) -> bool:
    """The training state, sharded over all N GPUs (16Φ/N), fits in each GPU's memory."""
    return formulas.get("train_static_bytes").evaluate(phi=phi) / n <= gpu.memory


def _run_world(model, gpu, n: int) -> World:
    return World(model=model, gpu=gpu, precision="bf16", n_gpus=n, holds=("train",))


def _run(rng, top: int = TOP_MFU):
    """A training run: model, GPU, N and a measured throughput giving an MFU of 25 % to ``top`` %."""
    while True:
        model, gpu = rng.choice(models.DENSE), rng.choice(TRAIN_GPUS)
        phi, n = nominal_phi(model), rng.choice((64, 128, 256, 512, 1024, 2048, 4096))
        if _fits_cluster(phi, gpu, n):
            break
    tps = _throughput(_target_mfu(rng, top), n, gpu, phi, top)
    givens = _cluster_givens(phi, gpu, n) + (given("tokens_per_s", "Measured throughput (all GPUs)",
                                                   "实测吞吐（全部 GPU）", tps, "tok_rate"),)
    return model, gpu, phi, n, tps, givens


def _run_text(model, gpu, phi, n, tps) -> tuple[str, str]:
    rate = fmt_quantity(tps, "tok_rate")
    return (f"{model.name} (Φ = {phi_text(phi)}) trains on {n} {gpu.name} GPUs ({_peak_text(gpu)} dense bf16 each) "
            f"at {rate} in total",
            f"{model.name}（Φ = {phi_text(phi)}）在 {n} 张 {gpu.name}（每卡 bf16 稠密峰值 {_peak_text(gpu)}）上训练，"
            f"总吞吐 {rate}")


@template("mfu.mfu_given", topic="mfu", title="MFU from throughput (formula given)", title_zh="由吞吐计算 MFU（给出公式）",
          difficulty=1, target_seconds=60)
def mfu_given(rng):
    model, gpu, phi, n, tps, givens = _run(rng)
    en, zh = _run_text(model, gpu, phi, n, tps)
    return Spec(
        givens=givens,
        asks=(Ask(formula="mfu", unit="%",
                  prompt_en=f"{en}. With MFU = tokens/s × 6Φ / (N × peak), what is the MFU, in %?",
                  prompt_zh=f"{zh}。按 MFU = tokens/s × 6Φ / (N × 峰值)，MFU 是多少（%）？"),),
        conventions_en=MFU_EN, conventions_zh=MFU_ZH,
        world=_run_world(model, gpu, n),
    )


@template("mfu.mfu", topic="mfu", title="MFU from measured throughput", title_zh="由实测吞吐计算 MFU",
          difficulty=2, target_seconds=90)
def mfu(rng):
    model, gpu, phi, n, tps, givens = _run(rng)
    en, zh = _run_text(model, gpu, phi, n, tps)
    return Spec(
        givens=givens,
        asks=(Ask(formula="mfu", unit="%",
                  prompt_en=f"{en}. What is the model FLOPs utilisation (MFU), in %?",
                  prompt_zh=f"{zh}。模型算力利用率（MFU）是多少（%）？"),),
        conventions_en=MFU_EN, conventions_zh=MFU_ZH,
        world=_run_world(model, gpu, n),
    )


HFU_EN = PEAK_EN + " Full activation recomputation: the forward pass runs twice; ignore the attention term."
HFU_ZH = PEAK_ZH + "全量激活重计算：前向计算跑两遍；忽略注意力项。"


@template("mfu.hfu", topic="mfu", title="HFU with full recomputation", title_zh="全量重计算下的 HFU",
          difficulty=2, target_seconds=90)
def hfu(rng):
    model, gpu, phi, n, tps, givens = _run(rng, TOP_MFU_RECOMPUTE)
    en, zh = _run_text(model, gpu, phi, n, tps)
    return Spec(
        givens=givens,
        asks=(Ask(formula="hfu", unit="%",
                  prompt_en=f"{en}, with full activation recomputation. What is the hardware FLOPs utilisation "
                            "(HFU, recomputed FLOPs counted), in %?",
                  prompt_zh=f"{zh}，开启全量激活重计算。硬件算力利用率（HFU，计入重计算的 FLOPs）是多少（%）？"),),
        conventions_en=HFU_EN, conventions_zh=HFU_ZH,
        world=_run_world(model, gpu, n),
    )


# --------------------------------------------------------------------------- #
# Training time


def _days(**inputs) -> float:
    return formulas.get("train_time").evaluate(**inputs) / DAY


def _time_setup(rng):
    """Model, tokens, GPU, N and MFU such that training takes 3 days to the longest run realism allows."""
    while True:
        model, gpu, d, u = rng.choice(models.DENSE), rng.choice(TRAIN_GPUS), rng.choice(TOKENS), rng.choice(MFUS)
        phi = nominal_phi(model)
        fits = [n for n in CLUSTERS
                if 3 <= _days(phi=phi, tokens=d, n_gpus=n, peak_flops=gpu.bf16, mfu=u) <= realism.MAX_RUN_DAYS
                and _fits_cluster(phi, gpu, n)]
        if fits:
            return model, gpu, phi, d, rng.choice(fits), u


@template("mfu.train_time", topic="mfu", title="Training time in days", title_zh="训练天数",
          difficulty=2, target_seconds=120)
def train_time(rng):
    model, gpu, phi, d, n, u = _time_setup(rng)
    return Spec(
        givens=_cluster_givens(phi, gpu, n) + (given("tokens", "Training tokens D", "训练 token 数 D", d),
                                               given("mfu", "MFU", "MFU", u, "ratio", "%")),
        asks=(Ask(formula="train_time", unit="day",
                  prompt_en=f"How many days does it take to train {model.name} (Φ = {phi_text(phi)}) on "
                            f"{_tokens_text(d)} tokens with {n:,} {gpu.name} GPUs ({_peak_text(gpu)} dense bf16) "
                            f"at {u * 100:g}% MFU?",
                  prompt_zh=f"用 {n:,} 张 {gpu.name}（bf16 稠密峰值 {_peak_text(gpu)}），在 {u * 100:g}% MFU 下，"
                            f"把 {model.name}（Φ = {phi_text(phi)}）训练 {_tokens_text(d)} 个 token 需要多少天？"),),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH, world=_run_world(model, gpu, n),
    )


def _chain_setup(rng, top: int = TOP_MFU):
    """A run whose measured throughput gives 25 % to ``top`` % MFU and a schedule of 3 days to ~6 months."""
    while True:  # the measured MFU, lower than the one the cluster was sized for, still finishes within ~6 months
        model, gpu, phi, d, n, _ = _time_setup(rng)
        tps = _throughput(_target_mfu(rng, top), n, gpu, phi, top)
        measured = formulas.get("mfu").evaluate(tokens_per_s=tps, phi=phi, n_gpus=n, peak_flops=gpu.bf16)
        if _days(phi=phi, tokens=d, n_gpus=n, peak_flops=gpu.bf16, mfu=measured) <= realism.MAX_RUN_DAYS:
            break
    givens = _cluster_givens(phi, gpu, n) + (
        given("tokens_per_s", "Measured throughput (all GPUs)", "实测吞吐（全部 GPU）", tps, "tok_rate"),
        given("tokens", "Training tokens D", "训练 token 数 D", d))
    return model, gpu, phi, d, n, tps, givens


def _train_time_ask(phi, d, n, gpu, mfu_ref: Ref) -> Ask:
    return Ask(formula="train_time", inputs={"phi": phi, "tokens": d, "n_gpus": n, "peak_flops": gpu.bf16,
                                             "mfu": mfu_ref}, unit="day",
               prompt_en=f"At that MFU, how many days does training on all {_tokens_text(d)} tokens take?",
               prompt_zh=f"按这个 MFU，训练完全部 {_tokens_text(d)} 个 token 需要多少天？")


@template("mfu.budget_chain", topic="mfu", title="Compute budget: 6ΦD → MFU → days",
          title_zh="算力预算：6ΦD → MFU → 天数", difficulty=2, target_seconds=300)
def budget_chain(rng):
    model, gpu, phi, d, n, tps, givens = _chain_setup(rng)
    en, zh = _run_text(model, gpu, phi, n, tps)
    return Spec(
        scenario_en=f"{en}; the plan is {_tokens_text(d)} training tokens.",
        scenario_zh=f"{zh}；计划训练 {_tokens_text(d)} 个 token。",
        givens=givens,
        asks=(Ask(formula="train_flops", inputs={"phi": phi, "tokens": d}, unit="FLOP",
                  prompt_en="How many FLOPs does the whole training run take (6ΦD), in FLOP?",
                  prompt_zh="整个训练需要多少 FLOPs（6ΦD）？"),
              Ask(formula="mfu", unit="%",
                  prompt_en="What MFU does the measured throughput correspond to, in %?",
                  prompt_zh="实测吞吐对应的 MFU 是多少（%）？"),
              _train_time_ask(phi, d, n, gpu, Ref(1))),
        conventions_en=TIME_EN, conventions_zh=TIME_ZH, world=_run_world(model, gpu, n),
    )


@template("mfu.utilisation_chain", topic="mfu", title="Utilisation: MFU → HFU → days",
          title_zh="利用率：MFU → HFU → 天数", difficulty=2, target_seconds=300)
def utilisation_chain(rng):
    model, gpu, phi, d, n, tps, givens = _chain_setup(rng, TOP_MFU_RECOMPUTE)
    en, zh = _run_text(model, gpu, phi, n, tps)
    return Spec(
        scenario_en=f"{en}, with full activation recomputation; the plan is {_tokens_text(d)} tokens.",
        scenario_zh=f"{zh}，开启全量激活重计算；计划训练 {_tokens_text(d)} 个 token。",
        givens=givens,
        asks=(Ask(formula="mfu", unit="%",
                  prompt_en="What is the MFU (model FLOPs only), in %?",
                  prompt_zh="MFU（只计模型 FLOPs）是多少（%）？"),
              Ask(formula="hfu", unit="%",
                  prompt_en="What is the HFU (recomputed FLOPs counted too), in %?",
                  prompt_zh="HFU（计入重计算的 FLOPs）是多少（%）？"),
              _train_time_ask(phi, d, n, gpu, Ref(0))),
        conventions_en=PEAK_EN + " Ignore the attention term. 1 day = 86,400 s.",
        conventions_zh=PEAK_ZH + "忽略注意力项。1 天 = 86,400 s。",
        world=_run_world(model, gpu, n),
    )


# --------------------------------------------------------------------------- #
# Derive it: MFU from what a training log shows (global batch and step time)


@template("mfu.mfu_from_step_time", topic="mfu", title="MFU from the step time (derive it)",
          title_zh="由单步耗时推导 MFU", difficulty=3, target_seconds=150)
def mfu_from_step_time(rng):
    while True:
        model, gpu = rng.choice(models.DENSE), rng.choice(TRAIN_GPUS)
        phi, n = nominal_phi(model), rng.choice((64, 128, 256, 512, 1024, 2048, 4096))
        s, batch = rng.choice((2048, 4096, 8192)), rng.choice((256, 512, 1024, 2048))
        target = rng.randint(25, 60) / 100
        step = _two_sig(6 * phi * batch * s / (n * gpu.bf16 * target))
        mfu = 6 * phi * batch * s / (n * gpu.bf16 * step)  # after rounding the step time to 2 figures
        if (0.5 <= step <= 60 and s <= model.context and _fits_cluster(phi, gpu, n)
                and mfu <= realism.MAX_MFU and batch * s / n >= realism.MIN_TOKENS_PER_GPU):
            break
    rate = _peak_text(gpu)
    return Spec(
        givens=_cluster_givens(phi, gpu, n) + (
            given("global_batch", "Global batch B_global (sequences)", "全局批大小 B_global（序列数）", batch),
            given("s", "Sequence length s", "序列长度 s", s),
            given("step_time", "Step time T_step", "单步耗时 T_step", step, "time", "s")),
        asks=(Ask(formula="mfu_from_step_time", unit="%",
                  prompt_en=f"{model.name} (Φ = {phi_text(phi)}) trains on {n} {gpu.name} GPUs ({rate} dense bf16 "
                            f"each). The training log shows that each optimizer step processes a global batch of "
                            f"{batch} sequences of s = {s} tokens and takes {fmt_number(step)} s. What is the MFU, "
                            "in %?",
                  prompt_zh=f"{model.name}（Φ = {phi_text(phi)}）在 {n} 张 {gpu.name}（每卡 bf16 稠密峰值 {rate}）上"
                            f"训练。训练日志显示：每个优化器步处理 {batch} 条、每条 s = {s} 个 token 的全局批，耗时 "
                            f"{fmt_number(step)} s。MFU 是多少（%）？",
                  explanation=("Tokens per step = B_global × s; tokens/s = B_global × s / T_step; "
                               "MFU = tokens/s × 6Φ / (N × peak).",),
                  explanation_zh=("每步 token 数 = B_global × s；tokens/s = B_global × s / T_step；"
                                  "MFU = tokens/s × 6Φ / (N × 峰值)。",)),),
        conventions_en=MFU_EN, conventions_zh=MFU_ZH,
        world=World(model=model, gpu=gpu, precision="bf16", n_gpus=n, holds=("train",), seq=s),
    )


MFU_JUDGEMENT_EN = ("Peak = dense bf16 tensor-core FLOP/s from the datasheet (no 2:4 sparsity); TFLOPS = 10¹² FLOP/s. MFU counts "
          "6Φ FLOPs per token; HFU adds the recomputed forward (8Φ with full recomputation). Published large dense "
          "runs on A100/H100 reach about 35-55% MFU (PaLM 46%, Llama 3 405B 38-43%): below 30% is low, above 65% is "
          "implausible for dense training (check the FLOP count and whether the sparse peak was used).")
MFU_JUDGEMENT_ZH = ("峰值取数据手册中 bf16 Tensor Core 稠密算力（不含 2:4 稀疏）；TFLOPS = 10¹² FLOP/s。MFU 按每 token 6Φ 计；HFU 再加上"
          "重计算的前向（全量重计算为 8Φ）。公开的大规模稠密训练在 A100/H100 上 MFU 约 35-55%（PaLM 46%，Llama 3 405B "
          "38-43%）：低于 30% 偏低，高于 65% 对稠密训练不可信（检查 FLOP 计数以及是否用了稀疏峰值）。")


@template("mfu.mfu_judgement", topic="mfu", title="Is this MFU good? MFU → HFU → verdict",
          title_zh="这个 MFU 好吗？MFU → HFU → 判断", difficulty=2, target_seconds=300, source="chowdhery2022")
def mfu_judgement(rng):
    model = rng.choice([m for m in models.DENSE if m.params >= 7e9])
    phi = nominal_phi(model)
    gpu = rng.choice(TRAIN_GPUS)
    n = rng.choice((64, 128, 256, 512, 1024))
    level = rng.choice((0.22, 0.25, 0.4, 0.45, 0.5, 0.72, 0.8))
    tps = float(f"{level * n * gpu.bf16 / (6 * phi):.3g}")
    mfu = formulas.get("mfu").evaluate(tokens_per_s=tps, phi=phi, n_gpus=n, peak_flops=gpu.bf16)
    low = Choice("low", ("too low", "poor", "偏低", "低"), "偏低")
    typical = Choice("typical", ("good", "normal", "fine", "reasonable", "正常", "合理"), "正常")
    implausible = Choice("implausible", ("too high", "suspicious", "impossible", "不可信", "可疑"), "不可信")
    answer = "low" if mfu < 0.3 else ("typical" if mfu <= 0.65 else "implausible")
    pc = fmt_number(mfu * 100)
    hfu_value = formulas.get("hfu").evaluate(tokens_per_s=tps, phi=phi, n_gpus=n, peak_flops=gpu.bf16)
    hfu = fmt_number(hfu_value * 100)
    over = hfu_value > 1  # the hardware would execute more than its peak
    verdict_en = {
        "low": f"{pc}% < 30%: low; the GPUs wait most of the time: look for exposed communication, pipeline bubbles, "
               "small kernels or a stalled input pipeline",
        "typical": f"30% ≤ {pc}% ≤ 65%: within what published dense runs reach: typical",
        "implausible": f"{pc}% > 65%: beyond any published dense run: implausible; recheck the FLOPs per token, the "
                       "measured throughput and whether the 2:4-sparse peak crept in"
                       + (f" (an HFU of {hfu}% would be more than the hardware's peak)" if over else ""),
    }[answer]
    verdict_zh = {
        "low": f"{pc}% < 30%：偏低；GPU 大部分时间在等待：去查暴露的通信、流水线气泡、小算子或数据加载卡顿",
        "typical": f"30% ≤ {pc}% ≤ 65%：处在公开稠密训练达到的范围内：正常",
        "implausible": f"{pc}% > 65%：超过了所有公开的稠密训练：不可信；复查每 token 的 FLOPs、实测吞吐，以及是否误用了 "
                       "2:4 稀疏峰值" + (f"（HFU {hfu}% 意味着硬件跑得比峰值还快）" if over else ""),
    }[answer]
    return Spec(
        scenario_en=f"A team reports {fmt_number(tps)} tokens/s training {model.name} (Φ = {phi_text(phi)}) on {n} "
                    f"{gpu.name} GPUs with full activation recomputation.",
        scenario_zh=f"某团队报告：在 {n} 张 {gpu.name} 上训练 {model.name}（Φ = {phi_text(phi)}），开启全量激活重计算，"
                    f"吞吐 {fmt_number(tps)} tokens/s。",
        givens=(phi_given(phi), given("tokens_per_s", "Throughput", "吞吐", tps, "tok_rate", "tok/s"),
                given("n_gpus", "GPUs N", "卡数 N", n),
                kit.named_peak(gpu)),
        asks=(Ask(formula="mfu", unit="%", prompt_en="What MFU is that, in %?", prompt_zh="对应的 MFU 是多少（%）？"),
              Ask(formula="hfu", unit="%", prompt_en="And the HFU with full recomputation, in %?",
                  prompt_zh="全量重计算下的 HFU 又是多少（%）？"),
              Ask(choices=(low, typical, implausible), answer=answer,
                  prompt_en="Is the MFU low, typical or implausible for dense LLM training?",
                  prompt_zh="对稠密大模型训练而言，这个 MFU 是偏低、正常还是不可信？",
                  explanation=(f"judge MFU, not HFU: MFU = {pc}%; the HFU of {hfu}% is 8/6 of it because the "
                               "recomputed forward keeps the GPUs busy without training the model any faster",
                               "yardstick: published large dense runs reach 35-55% MFU (PaLM 46%, Llama 3 405B "
                               "38-43%)", verdict_en),
                  explanation_zh=(f"判断看 MFU 而不是 HFU：MFU = {pc}%；HFU {hfu}% 是它的 8/6 倍，因为重计算的前向让 "
                                  "GPU 更忙，却不会让模型训练得更快",
                                  "参照：公开的大规模稠密训练 MFU 约 35-55%（PaLM 46%，Llama 3 405B 38-43%）", verdict_zh),
                  takeaway="judge a run by its MFU, never its HFU: below 30 % find the bottleneck, above 65 % recheck "
                           "the arithmetic before believing it.",
                  takeaway_zh="评价一次训练要看 MFU，而不是 HFU：低于 30% 要找瓶颈，高于 65% 先复查计算再相信它。",
                  card_formulas=("mfu",))),
        conventions_en=MFU_JUDGEMENT_EN, conventions_zh=MFU_JUDGEMENT_ZH,
        world=World(model=model, gpu=gpu, precision="bf16", judges_claim=True),
    )
