"""Scaling-law templates: Chinchilla-optimal tokens and size, predicted loss, over-training.

Scaling-law templates: Chinchilla-optimal tokens and model size, the loss the Chinchilla law predicts, and
what over-training buys.
"""

from __future__ import annotations

import math

from engine import formulas
from engine.units import fmt_number

from ... import hardware, kit, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..chip_givens import an
from ..model_params import model_phi, phi_given, phi_text, zh_model

# --------------------------------------------------------------------------- #
# Chinchilla sizing and "is this MFU good?" (mfu)

# The tokens per parameter are stated from engine.convention_set (20, or Table 3's 21 when chosen).
CHIN_EN = "Chinchilla (Hoffmann et al. 2022): C = 6·N·D FLOPs. Parameters and tokens are plain counts (70B = 7e10)."
CHIN_ZH = "Chinchilla（Hoffmann 等 2022）：C = 6·N·D FLOPs。参数量和 token 数均为个数（70B = 7e10）。"
TRAIN_GPUS = tuple(g for g in hardware.with_dtype("bf16") if g.key != "l40s")


@template("mfu.chinchilla_tokens", topic="mfu", title="Chinchilla-optimal tokens for a model",
          title_zh="模型的 Chinchilla 最优 token 数", difficulty=1, target_seconds=30, source="hoffmann2022",
          conventions=("tokens_per_param",))
def chinchilla_tokens(rng):
    name, phi = model_phi(rng, models.DENSE)
    return Spec(
        givens=(phi_given(phi),),
        world=World(model=next((m for m in models.MODELS if m.name == name), None), phi=phi),
        asks=(Ask(formula="chinchilla_tokens", unit="",
                  prompt_en=f"How many training tokens are compute-optimal for {name} (Φ = {phi_text(phi)})?",
                  prompt_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）的计算最优训练 token 数是多少？"),),
        conventions_en=CHIN_EN, conventions_zh=CHIN_ZH,
    )


@template("mfu.chinchilla_params", topic="mfu", title="Chinchilla-optimal model for a compute budget",
          title_zh="给定算力预算的 Chinchilla 最优模型规模", difficulty=2, target_seconds=90, source="hoffmann2022",
          conventions=("tokens_per_param",))
def chinchilla_params(rng):
    c = rng.randrange(10, 100) / 10 * 10.0 ** rng.choice((22, 23, 24, 25))
    return Spec(
        givens=(given("compute", "Compute budget C", "算力预算 C", float(c), "flop", "FLOP"),),
        asks=(Ask(formula="chinchilla_params", unit="",
                  prompt_en=f"With a training budget of C = {fmt_number(c)} FLOPs, how many parameters should a "
                            "compute-optimal model have?",
                  prompt_zh=f"训练预算为 C = {fmt_number(c)} FLOPs 时，计算最优的模型应有多少参数？"),),
        conventions_en=CHIN_EN, conventions_zh=CHIN_ZH,
    )


@template("mfu.chinchilla_chain", topic="mfu", title="Size a run: cluster budget → optimal model → optimal tokens",
          title_zh="规划训练：集群算力预算 → 最优模型 → 最优 token 数", difficulty=2, target_seconds=300,
          source="hoffmann2022, chowdhery2022", conventions=("tokens_per_param",))
def chinchilla_chain(rng):
    gpu = rng.choice(TRAIN_GPUS)
    n, days, mfu = rng.choice((512, 1024, 2048, 4096, 8192)), rng.choice((14, 30, 60, 90)), rng.choice((0.35, 0.4, 0.45))
    seconds = days * 86400.0
    budget = {"n_gpus": n, "peak_flops": gpu.bf16, "mfu": mfu, "time": seconds}
    return Spec(
        scenario_en=f"You have {n} {gpu.name} GPUs for {days} days at {fmt_number(mfu * 100)}% MFU.",
        scenario_zh=f"你有 {n} 张 {gpu.name}，可用 {days} 天，MFU 为 {fmt_number(mfu * 100)}%。",
        givens=(given("n_gpus", "GPUs N", "卡数 N", n),
                kit.named_peak(gpu),
                given("mfu", "MFU", "MFU", mfu, "ratio", "%"), given("time", "Training time", "训练时长", seconds, "time", "s")),
        asks=(Ask(formula="compute_budget", inputs=budget, unit="FLOP",
                  prompt_en=f"How many FLOPs can the run deliver in {days} days ({fmt_number(seconds)} s)?",
                  prompt_zh=f"{days} 天（{fmt_number(seconds)} s）内这次训练能提供多少 FLOPs？"),
              Ask(formula="chinchilla_params", inputs={"compute": Ref(0)}, unit="",
                  prompt_en="How many parameters should the compute-optimal model have?",
                  prompt_zh="计算最优的模型应有多少参数？"),
              Ask(formula="chinchilla_tokens", inputs={"phi": Ref(1)}, unit="",
                  prompt_en="And how many training tokens?", prompt_zh="训练 token 数又是多少？")),
        conventions_en=CHIN_EN + " Peak = dense bf16 (no sparsity); TFLOPS = 10¹² FLOP/s; 1 day = 86,400 s.",
        conventions_zh=CHIN_ZH + "峰值为 bf16 稠密算力（不含稀疏）；TFLOPS = 10¹² FLOP/s；1 天 = 86,400 s。",
        world=World(gpu=gpu, precision="bf16"),
    )


# The loss law: what over-training past 20 tokens per parameter buys (Hoffmann et al. 2022, approach 3)
LOSS_EN = ("Chinchilla's loss fit (Hoffmann et al. 2022, approach 3): E = 1.69 nats, A = 406.4, α = 0.34, "
           "B = 410.7, β = 0.28, with N parameters and D training tokens; compute-optimal training uses about 20 tokens "
           "per parameter and C = 6·N·D FLOPs. Parameters and tokens are plain counts (8B = 8e9).")
LOSS_ZH = ("Chinchilla 的损失拟合（Hoffmann 等 2022，方法 3）：E = 1.69 nat，A = 406.4，α = 0.34，B = 410.7，β = 0.28，"
           "N 为参数量、D 为训练 token 数；计算最优的训练约为每个参数 20 个 token，且 C = 6·N·D FLOPs。参数量和 token 数"
           "均为个数（8B = 8e9）。")
LOSS_TOLERANCE, LOSS_CLOSE = 0.003, 0.02  # losses of rival runs differ by about 1 %: graded to three figures
# Dense models of round sizes trained on 50 to 4,000 tokens per parameter, at most 40T tokens: published runs range
# from Chinchilla's 20 (Chinchilla 70B: 1.4T) through Llama 3 8B (15T, about 1,900 per parameter) to Qwen3 8B
# (36T, about 4,400)
LOSS_PHI = (1.5e9, 1.7e9, 3e9, 4e9, 7e9, 8e9, 13e9, 14e9, 32e9, 70e9)
LOSS_TOKENS_PER_PARAM = (50, 100, 200, 300, 500, 1000, 1500, 2000, 3000, 4000)
MAX_TOKENS = 40e12


def _trained(rng, least: int = 50) -> tuple[float, float, int]:
    """A model size, its training tokens and tokens per parameter (at least ``least``)."""
    while True:
        phi, k = rng.choice(LOSS_PHI), rng.choice([k for k in LOSS_TOKENS_PER_PARAM if k >= least])
        # no power of ten among N and D: "(10¹²)^0.28" is shown as "10¹²^0.28", which reads as 10^(12^0.28)
        if phi * k <= MAX_TOKENS and not float(math.log10(phi * k)).is_integer():
            return phi, phi * k, k


def _trained_givens(phi: float, tokens: float) -> tuple:
    return (given("phi", "Parameters N", "参数量 N", phi, "count", "params"),
            given("tokens", "Training tokens D", "训练 token 数 D", tokens, "count", "tokens"))


def _tokens_text(tokens: float) -> str:
    return f"{fmt_number(tokens / 1e12)}T" if tokens >= 1e12 else f"{fmt_number(tokens / 1e9)}B"


@template("mfu.chinchilla_loss", topic="mfu", title="Loss predicted by the Chinchilla law",
          title_zh="Chinchilla 损失定律预测的损失", difficulty=2, target_seconds=150, source="hoffmann2022")
def chinchilla_loss(rng):
    phi, tokens, k = _trained(rng)
    return Spec(
        givens=_trained_givens(phi, tokens),
        asks=(Ask(formula="chinchilla_loss", inputs={"phi": phi, "tokens": tokens}, unit="nats",
                  tolerance=LOSS_TOLERANCE, close=LOSS_CLOSE,
                  prompt_en=f"{an(phi_text(phi) + '-parameter', cap=True)} dense model is pre-trained on "
                            f"{_tokens_text(tokens)} tokens "
                            f"({k:,} per parameter). What loss does Chinchilla's fit predict for it, in nats?",
                  prompt_zh=f"一个 {phi_text(phi)} 参数的稠密模型预训练用了 {_tokens_text(tokens)} 个 token（每个参数 "
                            f"{k:,} 个）。Chinchilla 的拟合预测它的损失是多少（nat）？"),),
        conventions_en=LOSS_EN, conventions_zh=LOSS_ZH,
        world=World(phi=phi),
    )


# The chain's compute-optimal model is the fit's own optimum (fit_optimal_params), so it is scored by the fit it
# minimises: at the same compute it never has the higher loss.
OVERTRAIN_EN = ("Chinchilla's loss fit (Hoffmann et al. 2022, approach 3): E = 1.69 nats, A = 406.4, α = 0.34, "
                "B = 410.7, β = 0.28, with N parameters and D training tokens, and C = 6·N·D FLOPs. The compute-optimal "
                "model is this fit's own optimum at the same C: N_opt = G·(C/6)^(β/(α+β)), G = (αA/(βB))^(1/(α+β)), "
                "D_opt = C/(6·N_opt) (not the 20 tokens per parameter of approaches 1 and 2). Parameters and tokens "
                "are plain counts (8B = 8e9).")
OVERTRAIN_ZH = ("Chinchilla 的损失拟合（Hoffmann 等 2022，方法 3）：E = 1.69 nat，A = 406.4，α = 0.34，B = 410.7，β = 0.28，"
                "N 为参数量、D 为训练 token 数，C = 6·N·D FLOPs。计算最优模型取这个拟合在同一 C 下自己的最优点："
                "N_opt = G·(C/6)^(β/(α+β))，G = (αA/(βB))^(1/(α+β))，D_opt = C/(6·N_opt)（而不是方法 1、2 的每参数 20 个 "
                "token）。参数量和 token 数均为个数（8B = 8e9）。")


def _overtraining_takeaway(loss: float, loss_opt: float, ratio: float, k_opt: float) -> tuple[str, str]:
    """What the over-trained model gave up against the compute-optimal one of the same compute, by the fit."""
    cost = loss - loss_opt
    per = fmt_number(round(k_opt))
    lost_en = f"gave up {cost:.3f} nats" if cost >= 0.0005 else "gave up less than 0.001 nats"
    lost_zh = f"只多了 {cost:.3f} nat 的损失" if cost >= 0.0005 else "损失只多了不到 0.001 nat"
    return (f"for the same compute the fit's optimum ({per} tokens per parameter) would reach {loss_opt:.3f} nats "
            f"against {loss:.3f}: over-training {lost_en} for a model {ratio:.1f}× smaller, {ratio:.1f}× cheaper per "
            "token to serve. That is why models meant for wide serving train far past the compute-optimal ratio.",
            f"同样的算力下，该拟合的最优点（每参数 {per} 个 token）损失是 {loss_opt:.3f} nat，对比 {loss:.3f}：过度训练"
            f"{lost_zh}，换来小 {ratio:.1f} 倍、每 token 推理便宜 {ratio:.1f} 倍的模型。这就是要大规模部署的模型远超计算"
            "最优比例训练的原因。")


@template("mfu.overtraining_chain", topic="mfu",
          title="What over-training buys: its loss → the compute-optimal model of the same compute → that model's loss",
          title_zh="过度训练换来了什么：它的损失 → 同等算力下的计算最优模型 → 该模型的损失", difficulty=3,
          target_seconds=420, source="hoffmann2022, besiroglu2024")
def overtraining_chain(rng):
    while True:  # over-trained past the fit's own optimum, so the model is the smaller one
        phi, tokens, k = _trained(rng, least=100)
        compute = 6 * phi * tokens
        n_opt = formulas.get("fit_optimal_params").evaluate(compute=compute)
        if n_opt > 1.5 * phi:
            break
    d_opt = compute / (6 * n_opt)
    loss = formulas.get("chinchilla_loss").evaluate(phi=phi, tokens=tokens)
    loss_opt = formulas.get("chinchilla_loss").evaluate(phi=n_opt, tokens=d_opt)
    ratio = n_opt / phi
    take_en, take_zh = _overtraining_takeaway(loss, loss_opt, ratio, d_opt / n_opt)
    return Spec(
        scenario_en=f"{an(phi_text(phi) + '-parameter', cap=True)} dense model is pre-trained on "
                    f"{_tokens_text(tokens)} tokens: "
                    f"{k:,} per parameter, far past the compute-optimal ratio, as models meant to be served widely "
                    "are. What does spending the compute that way buy?",
        scenario_zh=f"一个 {phi_text(phi)} 参数的稠密模型预训练用了 {_tokens_text(tokens)} 个 token：每个参数 {k:,} 个，"
                    "远超计算最优的比例，要大规模部署的模型正是这样训练的。这样花算力换来了什么？",
        givens=_trained_givens(phi, tokens),
        asks=(Ask(formula="chinchilla_loss", inputs={"phi": phi, "tokens": tokens}, unit="nats",
                  tolerance=LOSS_TOLERANCE, close=LOSS_CLOSE,
                  prompt_en="What loss does Chinchilla's fit predict for this model, in nats?",
                  prompt_zh="Chinchilla 的拟合预测这个模型的损失是多少（nat）？"),
              Ask(formula="fit_optimal_params", inputs={"compute": compute}, unit="",
                  explanation=(f"C = 6 × N × D = 6 × {fmt_number(phi)} × {fmt_number(tokens)} = "
                               f"{fmt_number(compute)} FLOPs",),
                  explanation_zh=(f"C = 6 × N × D = 6 × {fmt_number(phi)} × {fmt_number(tokens)} = "
                                  f"{fmt_number(compute)} FLOPs",),
                  prompt_en="With the same training compute, how many parameters would the fit's compute-optimal "
                            "model have?",
                  prompt_zh="用同样的训练算力，按这个拟合计算最优的模型应有多少参数？"),
              Ask(formula="chinchilla_loss", inputs={"phi": Ref(1), "tokens": d_opt}, unit="nats",
                  tolerance=LOSS_TOLERANCE, close=LOSS_CLOSE,
                  explanation=(f"D_opt = C / (6 × N_opt) = {fmt_number(compute)} / (6 × {fmt_number(n_opt)}) = "
                               f"{fmt_number(d_opt)} tokens",),
                  explanation_zh=(f"D_opt = C / (6 × N_opt) = {fmt_number(compute)} / (6 × {fmt_number(n_opt)}) = "
                                  f"{fmt_number(d_opt)} 个 token",),
                  takeaway=take_en, takeaway_zh=take_zh,
                  prompt_en="And what loss would that compute-optimal model, trained on D_opt = C/(6·N_opt) tokens, "
                            "reach, in nats?",
                  prompt_zh="这个计算最优的模型用 D_opt = C/(6·N_opt) 个 token 训练，损失又是多少（nat）？")),
        conventions_en=OVERTRAIN_EN, conventions_zh=OVERTRAIN_ZH,
        world=World(phi=phi),
    )
