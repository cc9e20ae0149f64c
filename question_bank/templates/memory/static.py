"""Static training-memory templates (C§1): 16Φ, ZeRO-1/2/3 per GPU, its formula derived, and the fewest GPUs."""

from __future__ import annotations

from engine import convention_set as cs
from engine import formulas
from engine.langs import EN, ZH
from engine.messages import pick
from engine.units import fmt_number

from ... import hardware, kit, models
from ...spec import Ask, Ref, Spec, World, given, settled_by_hand
from ...template import convention, template
from ..model_params import (
    LARGEST_GPU_BYTES,
    cap,
    model_phi,
    model_world,
    nominal_phi,
    phi_given,
    phi_text,
    zh_after,
    zh_model,
)

DP_SIZES = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)

# The static state's conventions: the recipe per parameter is stated from engine.convention_set, under
# the learner's choice (bytes_per_param 16 / 18 / 20); a "given" problem also gives its bytes.
STATIC_EN = "bf16 mixed-precision training with AdamW. GB = 10⁹ B. Activations and temporary buffers are not counted."
STATIC_ZH = "bf16 混合精度训练 + AdamW。GB = 10⁹ B。不计激活值和临时缓冲区。"
# The training a recipe off AdamW's 16 B describes (en, zh): the first sentence of STATIC_EN / STATIC_ZH under it.
STATIC_TRAINING = {"12_fp8": ("FP8 mixed-precision training with AdamW (bf16 moments), as DeepSeek trained V3.",
                              "FP8 混合精度训练 + AdamW（bf16 动量），DeepSeek 训练 V3 的方式。"),
                   "10_adam8bit": ("bf16 mixed-precision training with 8-bit Adam.", "bf16 混合精度训练 + 8 位 Adam。"),
                   "12_one_state": ("bf16 mixed-precision training with a one-state optimizer (SGD with momentum, Lion "
                                    "or Muon).", "bf16 混合精度训练 + 单状态优化器（带动量的 SGD、Lion 或 Muon）。")}


def static_conv(lang: str) -> str:
    """:data:`STATIC_EN` / :data:`STATIC_ZH` under the problem's bytes_per_param (its optimizer named)."""
    text = pick(lang, STATIC_EN, STATIC_ZH)
    own = STATIC_TRAINING.get(convention("bytes_per_param"))
    if own is None:
        return text
    first = pick(lang, "bf16 mixed-precision training with AdamW.", "bf16 混合精度训练 + AdamW。")
    return text.replace(first, pick(lang, *own))


def optimizer_states(lang: str) -> str:
    """``AdamW states`` or what the problem's recipe keeps instead (8-bit Adam states, optimizer states)."""
    value = convention("bytes_per_param")
    return pick(lang, *cs.RECIPE_OPTIMIZER_NAME.get(value, ("AdamW states", "AdamW 状态")))


def static_given_text(lang: str) -> str:
    """The bytes per parameter a "given" problem gives, under the problem's bytes_per_param."""
    value = convention("bytes_per_param")
    w, g, o = cs.split(value)
    if value == "12_fp8":  # DeepSeek-V3's FP8 recipe keeps no bf16 weights: the FP8 casts are made on the fly
        return pick(lang, "Per parameter 4 B fp32 master weights + 4 B fp32 gradients + 4 B bf16 Adam momentum and "
                          "variance (2 B each); the FP8 weights are cast from the master weights on the fly.",
                    "每个参数 4 B fp32 主权重 + 4 B fp32 梯度 + 4 B bf16 Adam 一阶和二阶动量（各 2 B）；FP8 权重在计算时由主权重"
                    "临时转换。")
    if value in cs.RECIPE_OPTIMIZER:
        return pick(lang, f"Per parameter {w} B bf16 weights + {g} B bf16 gradients + {cs.optimizer_words(value, EN)}.",
                    f"每个参数 {w} B bf16 权重 + {g} B bf16 梯度 + {cs.optimizer_words(value, ZH)}。")
    gd = "bf16" if g == 2 else "fp32"
    extra_en = " + 4 B fp32 main gradient" if o == 16 else ""
    extra_zh = " + 4 B fp32 主梯度" if o == 16 else ""
    if lang == ZH:
        return (f"每个参数 {w} B bf16 权重 + {g} B {gd} 梯度{extra_zh} + 12 B fp32 优化器状态"
                "（主权重 4 B、一阶动量 4 B、二阶动量 4 B）。")
    return (f"Per parameter {w} B bf16 weights + {g} B {gd} gradients{extra_en} + 12 B fp32 optimizer state (master "
            "weights 4 B, momentum 4 B, variance 4 B).")


def _recipe() -> float:
    """The bytes per parameter the problem counts (a draw that must fit checks it under the learner's choice: the
    scenario of a seed is the same under every choice unless it would not fit, then it is drawn again)."""
    return cs.recipe_bytes(convention("bytes_per_param"))


def zero_formula(stage: int) -> str:
    """``4Φ + 12Φ/N_dp`` for ZeRO-``stage`` under the problem's bytes_per_param (its recipe's split)."""
    w, g, o = cs.split(convention("bytes_per_param"))
    return {1: f"{w + g}Φ + {o}Φ/N_dp", 2: f"{w}Φ + {g + o}Φ/N_dp", 3: f"{w + g + o}Φ/N_dp"}[stage]

ZERO_SHARDS_EN = {1: "ZeRO-1 (optimizer states sharded)", 2: "ZeRO-2 (optimizer states and gradients sharded)",
                  3: "ZeRO-3 / FSDP (weights, gradients and optimizer states all sharded)"}
ZERO_SHARDS_ZH = {1: "ZeRO-1（切分优化器状态）", 2: "ZeRO-2（切分优化器状态和梯度）",
                  3: "ZeRO-3 / FSDP（权重、梯度、优化器状态全部切分）"}


# --------------------------------------------------------------------------- #
# Static memory and ZeRO


@template("memory.static_given", topic="memory", title="Static training memory (16Φ given)",
          title_zh="训练静态显存（给出 16Φ 构成）", difficulty=1, target_seconds=45, conventions=("bytes_per_param",))
def static_given(rng):
    name, phi = model_phi(rng)
    return Spec(
        givens=(phi_given(phi),),
        asks=(Ask(formula="train_static_bytes", unit="GB",
                  prompt_en=f"Training {name} (Φ = {phi_text(phi)}): how much memory do the weights, gradients "
                            "and optimizer states take in total, in GB?",
                  prompt_zh=f"{zh_after('训练', name)}（Φ = {phi_text(phi)}）：权重、梯度和优化器状态一共占多少显存（GB）？"),),
        conventions_en=static_conv(EN) + " " + static_given_text(EN), conventions_zh=static_conv(ZH) + static_given_text(ZH),
        world=model_world(name, phi),
    )


@template("memory.static", topic="memory", title="Static training memory", title_zh="训练静态显存",
          difficulty=2, target_seconds=60, conventions=("bytes_per_param",))
def static(rng):
    name, phi = model_phi(rng)
    return Spec(
        givens=(phi_given(phi),),
        asks=(Ask(formula="train_static_bytes", unit="GB",
                  prompt_en=f"How much static memory (weights + gradients + optimizer states) does training "
                            f"{name} (Φ = {phi_text(phi)}) need before any sharding, in GB?",
                  prompt_zh=f"{zh_after('训练', name)}（Φ = {phi_text(phi)}）在不做任何切分时需要多少静态显存"
                            "（权重 + 梯度 + 优化器状态），单位 GB？"),),
        conventions_en=static_conv(EN), conventions_zh=static_conv(ZH), world=model_world(name, phi),
    )


def _zero_spec(rng, formula_given: bool) -> Spec:
    while True:  # a per-GPU figure that could live on a real GPU (question_bank.realism, "fits")
        name, phi = model_phi(rng)
        stage, n = rng.choice((1, 2, 3)), rng.choice(DP_SIZES)
        if formulas.get(f"zero{stage}_bytes").evaluate(phi=phi, n_dp=n, recipe=_recipe()) <= LARGEST_GPU_BYTES:
            break
    hint_en = f" Per GPU it holds {zero_formula(stage)}." if formula_given else ""
    hint_zh = f"每卡显存为 {zero_formula(stage)}。" if formula_given else ""
    return Spec(
        givens=(phi_given(phi), given("n_dp", "Data-parallel GPUs N_dp", "数据并行卡数 N_dp", n)),
        asks=(Ask(formula=f"zero{stage}_bytes", unit="GB",
                  prompt_en=f"{cap(name)} (Φ = {phi_text(phi)}) is trained with {ZERO_SHARDS_EN[stage]} over "
                            f"N_dp = {n} data-parallel GPUs.{hint_en} How much static memory does each GPU "
                            "hold, in GB?",
                  prompt_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）在 N_dp = {n} 张数据并行卡上用 "
                            f"{ZERO_SHARDS_ZH[stage]}训练。{hint_zh}每张卡上的静态显存是多少（GB）？"),),
        conventions_en=static_conv(EN), conventions_zh=static_conv(ZH),
        world=model_world(name, phi, holds=(f"zero{stage}",), n_dp=n),
    )


@template("memory.zero_given", topic="memory", title="ZeRO per-GPU memory (formula given)",
          title_zh="ZeRO 每卡显存（给出公式）", difficulty=1, target_seconds=60, conventions=("bytes_per_param",))
def zero_given(rng):
    return _zero_spec(rng, formula_given=True)


@template("memory.zero_per_gpu", topic="memory", title="ZeRO-1/2/3 per-GPU memory", title_zh="ZeRO-1/2/3 每卡显存",
          difficulty=2, target_seconds=90, conventions=("bytes_per_param",))
def zero_per_gpu(rng):
    return _zero_spec(rng, formula_given=False)


def _shown(expr: str) -> str:
    """``2*phi + 14*phi/N`` as people write it: ``2Φ + 14Φ/N``."""
    return expr.replace("*phi", "Φ").replace("phi", "Φ")


def _times_phi(c: int) -> str:
    return "phi" if c == 1 else f"{c}*phi"


def _zero_expression(stage: int, w: int, g: int, k: int) -> str:
    return {1: f"{_times_phi(w + g)} + {_times_phi(k)}/N", 2: f"{_times_phi(w)} + {_times_phi(g + k)}/N",
            3: f"{_times_phi(w + g + k)}/N"}[stage]


@template("memory.zero_expression", topic="memory", title="Derive the ZeRO per-GPU formula",
          title_zh="推导 ZeRO 每卡显存公式", difficulty=3, target_seconds=120)
def zero_expression(rng):
    stage = rng.choice((1, 2, 3))
    w, g, k = rng.choice((1, 2, 4)), rng.choice((2, 4)), rng.choice((4, 8, 12, 16))
    expr = _zero_expression(stage, w, g, k)
    kept = {1: ("keeps the weights and gradients whole on every GPU and divides the optimizer states by N",
                "每卡完整保留权重和梯度，优化器状态除以 N"),
            2: ("keeps the weights whole on every GPU and divides gradients and optimizer states by N",
                "每卡完整保留权重，梯度和优化器状态除以 N"),
            3: ("divides weights, gradients and optimizer states by N", "权重、梯度和优化器状态全部除以 N")}[stage]
    return Spec(
        givens=(given("w", "Weight bytes per parameter", "每参数权重字节", w, "bytes", "B"),
                given("g", "Gradient bytes per parameter", "每参数梯度字节", g, "bytes", "B"),
                given("k", "Optimizer-state bytes per parameter", "每参数优化器状态字节", k, "bytes", "B")),
        asks=(Ask(expression=expr,
                  aliases={"Φ": "phi", "φ": "phi", "phi": "phi", "Phi": "phi", "N": "N", "N_dp": "N", "n": "N",
                           "Ndp": "N", "n_dp": "N"},
                  prompt_en=f"A training setup keeps, per parameter, {w} B of weights, {g} B of gradients and "
                            f"{k} B of optimizer state. Write the static memory per GPU under "
                            f"{ZERO_SHARDS_EN[stage]} as an expression in Φ (parameters) and N (data-parallel "
                            "GPUs). Syntax example: 5*Φ/N + 3*Φ.",
                  prompt_zh=f"某训练配置每个参数保存 {w} B 权重、{g} B 梯度和 {k} B 优化器状态。写出 "
                            f"{ZERO_SHARDS_ZH[stage]} 下每卡静态显存关于 Φ（参数量）和 N（数据并行卡数）的表达式，"
                            "书写示例：5*Φ/N + 3*Φ。",
                  explanation=(f"Unsharded per GPU: ({w} + {g} + {k})Φ = {w + g + k}Φ.",
                               f"{ZERO_SHARDS_EN[stage]} {kept[0]}.",
                               f"  = {_shown(expr)}"),
                  explanation_zh=(f"不切分时每卡：({w} + {g} + {k})Φ = {w + g + k}Φ。",
                                  f"{ZERO_SHARDS_ZH[stage]}：{kept[1]}。",
                                  f"  = {_shown(expr)}"),
                  takeaway="what is sharded is divided by N, what is replicated is not: as N grows, only the "
                           "replicated bytes per parameter remain.",
                  takeaway_zh="被切分的部分除以 N，被复制的部分不除：N 越大，剩下的只有复制的那部分。",
                  card_formulas=(f"zero{stage}_bytes",)),),
        conventions_en="Φ is the parameter count; bytes are per parameter.",
        conventions_zh="Φ 为参数量；字节数按每个参数计。",
    )


@template("memory.zero_planning", topic="memory", title="ZeRO planning: 16Φ → sharding → fewest GPUs",
          title_zh="ZeRO 规划：16Φ → 切分 → 最少卡数", difficulty=2, target_seconds=300,
          conventions=("bytes_per_param",))
def zero_planning(rng):
    while True:  # the fewest GPUs is a whole number settled by hand (base.WHOLE_MARGIN)
        model = models.draw(rng, [m for m in models.MODELS if m.params >= 7e9], accept=lambda m: m.params >= 7e9)
        phi, n = nominal_phi(model), rng.choice((8, 16, 32, 64, 128, 256))
        gpu = hardware.draw(rng, [g for g in hardware.GPUS if g.memory >= 40e9])
        static = formulas.get("train_static_bytes").evaluate(phi=phi, bytes_per_param=_recipe())
        if static / n <= gpu.memory and settled_by_hand("min_gpus", {"total_bytes": static, "gpu_bytes": gpu.memory}):
            break
    mem = f"{fmt_number(gpu.memory / 1e9)} GB"
    return Spec(
        scenario_en=f"You plan the training of {model.name} (Φ = {phi_text(phi)}) on {gpu.name} GPUs ({mem} each).",
        scenario_zh=f"你要规划 {model.name}（Φ = {phi_text(phi)}）在 {gpu.name}（每卡 {mem}）上的训练。",
        givens=(phi_given(phi), given("n_dp", "Data-parallel GPUs N_dp", "数据并行卡数 N_dp", n),
                kit.chip(gpu, "memory", label=(f"{gpu.name} memory", f"{gpu.name} 显存"))),
        asks=(Ask(formula="train_static_bytes", unit="GB",
                  prompt_en=f"Without sharding, how much static memory (weights + gradients + {optimizer_states(EN)}) "
                            "does training need, in GB?",
                  prompt_zh=f"不做切分时，训练需要多少静态显存（权重 + 梯度 + {optimizer_states(ZH)}），单位 GB？"),
              Ask(formula="zero1_bytes", unit="GB",
                  prompt_en=f"Would ZeRO-1 over N_dp = {n} GPUs do? How much would each GPU hold, in GB (compare it "
                            f"with the {mem})?",
                  prompt_zh=f"用 ZeRO-1、N_dp = {n} 张卡行不行？每卡要保存多少静态显存（GB，与 {mem} 比较）？"),
              Ask(formula="zero3_bytes", unit="GB",
                  prompt_en=f"The plan is ZeRO-3 over the same {n} GPUs: how much does each GPU hold, in GB?",
                  prompt_zh=f"计划采用 ZeRO-3，同样 {n} 张卡：每卡保存多少静态显存（GB）？"),
              Ask(formula="min_gpus", inputs={"total_bytes": Ref(0), "gpu_bytes": gpu.memory}, integer=True,
                  tolerance=0.001,
                  prompt_en=f"With ZeRO-3 sharding everything evenly, what is the fewest {gpu.name} GPUs whose "
                            "memory holds the static state (ignore activations)?",
                  prompt_zh=f"ZeRO-3 把静态显存均匀切分，至少需要多少张 {gpu.name} 才能放下（忽略激活值）？")),
        conventions_en=static_conv(EN) + " A whole number of GPUs.",
        conventions_zh=static_conv(ZH) + "卡数为整数。",
        world=World(model=model, gpu=gpu, precision="bf16", holds=("zero3",), n_dp=n),
    )
