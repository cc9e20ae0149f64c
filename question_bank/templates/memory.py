"""Training-memory templates (C§1): static 16Φ, ZeRO-1/2/3, fewest GPUs, activations and recomputation, and
activations per GPU under tensor and sequence parallelism (Korthikanti et al. 2022, Table 2)."""

from __future__ import annotations

from engine import convention_set as cs
from engine import formulas
from engine.choices import Choice
from engine.units import best_unit, fmt_number, fmt_quantity

from .. import hardware, kit, models
from ..base import Ask, Ref, Spec, World, convention, given, settled_by_hand, template
from .roofline import an

# Round parameter counts an interviewer uses for "a Φ-parameter model" (billions).
ROUND_PHI_B = tuple(range(1, 31)) + (32, 34, 36, 40, 45, 50, 56, 60, 65, 70, 72, 80, 90, 100, 120, 130, 140, 150,
                                     175, 180, 200, 235, 250, 300, 340, 400, 480, 500, 540, 600, 671, 1000)
DP_SIZES = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
SEQ_LENS = (1024, 2048, 4096, 8192)
MICRO_BATCHES = (1, 2, 4, 8)

# The static state's conventions (issue #24): the recipe per parameter is stated from engine.convention_set, under
# the learner's choice (bytes_per_param 16 / 18 / 20); a "given" problem also gives its bytes.
STATIC_EN = "bf16 mixed-precision training with AdamW. GB = 10⁹ B. Activations and temporary buffers are not counted."
STATIC_ZH = "bf16 混合精度训练 + AdamW。GB = 10⁹ B。不计激活值和临时缓冲区。"


def static_given_text(lang: str) -> str:
    """The bytes per parameter a "given" problem gives, under the problem's bytes_per_param."""
    w, g, o = cs.RECIPE_SPLIT[convention("bytes_per_param")]
    gd = "bf16" if g == 2 else "fp32"
    extra_en = " + 4 B fp32 main gradient" if o == 16 else ""
    extra_zh = " + 4 B fp32 主梯度" if o == 16 else ""
    if lang == "zh":
        return (f"每个参数 {w} B bf16 权重 + {g} B {gd} 梯度{extra_zh} + 12 B fp32 优化器状态"
                "（主权重 4 B、一阶动量 4 B、二阶动量 4 B）。")
    return (f"Per parameter {w} B bf16 weights + {g} B {gd} gradients{extra_en} + 12 B fp32 optimizer state (master "
            "weights 4 B, momentum 4 B, variance 4 B).")


def _recipe() -> float:
    """The bytes per parameter the problem counts (a draw that must fit checks it under the learner's choice: the
    scenario of a seed is the same under every choice unless it would not fit, then it is drawn again)."""
    return float(convention("bytes_per_param"))


def zero_formula(stage: int) -> str:
    """``4Φ + 12Φ/N_dp`` for ZeRO-``stage`` under the problem's bytes_per_param (its recipe's split)."""
    w, g, o = cs.RECIPE_SPLIT[convention("bytes_per_param")]
    return {1: f"{w + g}Φ + {o}Φ/N_dp", 2: f"{w}Φ + {g + o}Φ/N_dp", 3: f"{w + g + o}Φ/N_dp"}[stage]


ACT_EN = ("bf16 activations (2 B), 1-byte dropout masks, a GPT-style Transformer layer (attention + 4h GELU MLP, "
          "dropout) as in Megatron-LM (Korthikanti et al. 2022); attention scores materialised (no FlashAttention); "
          "no tensor or sequence parallelism. MB = 10⁶ B, GB = 10⁹ B, TB = 10¹² B.")
ACT_ZH = ("激活值为 bf16（2 B），dropout 掩码每元素 1 B，GPT 式 Transformer 层（注意力 + 4h 的 GELU MLP，带 dropout，"
          "Megatron-LM 口径，Korthikanti 等 2022）；注意力分数完整存储（不用 FlashAttention）；"
          "不使用张量并行和序列并行。MB = 10⁶ B，GB = 10⁹ B，TB = 10¹² B。")
ACT_SWIGLU_EN = ("bf16 activations (2 B), a Llama-style layer: RMSNorm, SwiGLU MLP of inner size f (gate and up "
                 "projections), no dropout, no biases; attention scores materialised (no FlashAttention); no tensor or "
                 "sequence parallelism. MB = 10⁶ B, GB = 10⁹ B, TB = 10¹² B.")
ACT_SWIGLU_ZH = ("激活值为 bf16（2 B），Llama 式 Transformer 层：RMSNorm、内部维度为 f 的 SwiGLU MLP（gate 与 up 两个投影）、"
                 "无 dropout、无偏置；注意力分数完整存储（不用 FlashAttention）；不使用张量并行和序列并行。"
                 "MB = 10⁶ B，GB = 10⁹ B，TB = 10¹² B。")

ZERO_SHARDS_EN = {1: "ZeRO-1 (optimizer states sharded)", 2: "ZeRO-2 (optimizer states and gradients sharded)",
                  3: "ZeRO-3 / FSDP (weights, gradients and optimizer states all sharded)"}
ZERO_SHARDS_ZH = {1: "ZeRO-1（切分优化器状态）", 2: "ZeRO-2（切分优化器状态和梯度）",
                  3: "ZeRO-3 / FSDP（权重、梯度、优化器状态全部切分）"}


# --------------------------------------------------------------------------- #
# Helpers shared by the memory, communication and MFU templates


nominal_phi = kit.nominal_phi  # Φ as people say it (69B for 68.98B): one definition, in the kit


def phi_text(phi: float) -> str:
    """``69B``, ``6.7B``, ``406B``."""
    return f"{fmt_number(phi / 1e9)}B"


def model_phi(rng, pool=models.MODELS) -> tuple[str, float]:
    """A named model (its published Φ, rounded) or a round Φ: (name, Φ)."""
    i = rng.randrange(len(pool) + len(ROUND_PHI_B))
    if i < len(pool):
        return pool[i].name, nominal_phi(pool[i])
    phi = ROUND_PHI_B[i - len(pool)] * 1e9
    text = phi_text(phi)
    return f"{an(text)}-parameter model", phi


def model_world(name: str, phi: float, **facts) -> World:
    """The world of a problem on ``name`` (a catalogue model, or "a 30B-parameter model" of Φ = ``phi``)."""
    m = next((m for m in models.MODELS + models.MOE_MODELS if m.name == name), None)
    return World(model=m, phi=None if m else phi, **facts)


# A figure "could live on a real GPU" when it fits the largest memory in the catalogue (question_bank.realism).
LARGEST_GPU_BYTES = max(g.memory for g in hardware.GPUS)


def phi_given(phi: float):
    return given("phi", "Parameters Φ", "参数量 Φ", phi)


def unit_for(formula: str, **inputs) -> str:
    """The unit a person would answer in (GB, MB, ms, µs ...) for this formula's value."""
    f = formulas.get(formula)
    sym = best_unit(f.evaluate(**inputs), f.unit)[0]
    return "µs" if sym == "us" else sym


def cap(text: str) -> str:
    """Capitalised for the start of a sentence (model names keep their case)."""
    return text[:1].upper() + text[1:]


def zh_after(word: str, name: str) -> str:
    """``训练 Llama-2-7B`` but ``训练一个 30B 参数的模型`` (a space only before a Latin name)."""
    zh = zh_model(name)
    return word + ("" if zh.startswith("一") else " ") + zh


def zh_model(name: str) -> str:
    if not name.endswith("-parameter model"):
        return name
    return "一个 " + name.split(" ", 1)[1].replace("-parameter model", " 参数的模型")


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
        conventions_en=STATIC_EN + " " + static_given_text("en"), conventions_zh=STATIC_ZH + static_given_text("zh"),
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
        conventions_en=STATIC_EN, conventions_zh=STATIC_ZH, world=model_world(name, phi),
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
        conventions_en=STATIC_EN, conventions_zh=STATIC_ZH,
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
                  prompt_en="Without sharding, how much static memory (weights + gradients + AdamW states) "
                            "does training need, in GB?",
                  prompt_zh="不做切分时，训练需要多少静态显存（权重 + 梯度 + AdamW 状态），单位 GB？"),
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
        conventions_en=STATIC_EN + " A whole number of GPUs.",
        conventions_zh=STATIC_ZH + "卡数为整数。",
        world=World(model=model, gpu=gpu, precision="bf16", holds=("zero3",), n_dp=n),
    )


# --------------------------------------------------------------------------- #
# Activations and recomputation


# The layer Korthikanti et al. count (Model.gpt_style): GPT-3 and the Megatron GPT configurations of their Table 3
# (Falcon's 4h GELU MLP comes without dropout and with grouped KV heads: not that layer).
GPT_STYLE = tuple(m for m in models.DENSE + models.MEGATRON_GPT if m.gpt_style)


def _gpt_style_model(rng) -> models.Model:
    """A GPT-style model: a catalogue one, or a hypothetical one (4h GELU MLP, LayerNorm, biases, dropout)."""
    if rng.random() < 0.5:
        return rng.choice(GPT_STYLE)
    a = rng.choice((16, 32, 40, 64, 96))
    h, layers = 128 * a, rng.choice((24, 32, 40, 48, 64, 80, 96))
    return models.Model("hypothetical", "a hypothetical GPT-style model", layers, h, a, a, 128, 4 * h, 50257,
                        12.0 * layers * h * h, False, "made up for the problem", max_seq=8192, norm="LayerNorm",
                        bias=True, dropout=True, positions="learned")


def _act_setup(rng, *, gated_ok: bool = True):
    """A model and (s, b) within its context; a Llama-style (gated) model only when ``gated_ok``: its layer
    has its own formula (activation_bytes_layer_swiglu), and the 34sbh of selective recomputation is GPT's."""
    model = rng.choice(models.DENSE)
    if not (model.gpt_style or (gated_ok and model.gated)):  # a formula counts this layer
        model = _gpt_style_model(rng)
    s = rng.choice([s for s in SEQ_LENS if s <= model.context])
    b = rng.choice([b for b in MICRO_BATCHES if s * b <= 16384])
    inputs = {"s": s, "b": b, "h": model.d_model, "a": model.n_heads}
    givens = (given("s", "Sequence length s", "序列长度 s", s), given("b", "Micro-batch size b", "微批次大小 b", b),
              given("h", "Hidden size h", "隐藏维度 h", model.d_model),
              given("a", "Attention heads a", "注意力头数 a", model.n_heads))
    if model.gated:
        inputs |= {"n_kv_heads": model.n_kv_heads, "ffn": model.ffn}
        givens += (given("n_kv_heads", "KV heads n_kv", "KV 头数 n_kv", model.n_kv_heads),
                   given("ffn", "MLP inner size f", "MLP 内部维度 f", model.ffn))
    return model, inputs, givens


def _layer_formula(model) -> str:
    return "activation_bytes_layer_swiglu" if model.gated else "activation_bytes_layer"


def _act_conventions(model) -> dict:
    return ({"conventions_en": ACT_SWIGLU_EN, "conventions_zh": ACT_SWIGLU_ZH} if model.gated
            else {"conventions_en": ACT_EN, "conventions_zh": ACT_ZH})


def _act_world(model, inputs) -> World:
    return World(model=model, seq=inputs["s"], batch=inputs["b"])


def _act_text(model, inputs, start: bool = True) -> tuple[str, str]:
    s, b = inputs["s"], inputs["b"]
    name_zh = model.name.replace("a hypothetical GPT-style model", "一个假想的 GPT 式模型")
    extra_en = f", n_kv = {model.n_kv_heads} KV heads, f = {model.ffn}" if model.gated else ""
    extra_zh = f"，n_kv = {model.n_kv_heads} 个 KV 头，f = {model.ffn}" if model.gated else ""
    en = (f"{cap(model.name) if start else model.name} (h = {model.d_model}, a = {model.n_heads} heads{extra_en}), sequence length s = {s}, "
          f"micro-batch b = {b}")
    zh = f"{name_zh}（h = {model.d_model}，a = {model.n_heads} 个头{extra_zh}），序列长度 s = {s}，微批次 b = {b}"
    return en, zh


def _layer_expression(model) -> str:
    return "s·b·(12h + 4h·n_kv/a + 6f) + 2·a·s²·b" if model.gated else "s·b·h·(34 + 5·a·s/h)"


@template("memory.activation_layer_given", topic="memory", title="Activation memory per layer (formula given)",
          title_zh="每层激活值显存（给出公式）", difficulty=1, target_seconds=90)
def activation_layer_given(rng):
    model, inputs, givens = _act_setup(rng)
    en, zh = _act_text(model, inputs)
    formula = _layer_formula(model)
    unit = unit_for(formula, **inputs)
    expr = _layer_expression(model)
    return Spec(
        givens=givens,
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{en}. One layer stores {expr} bytes of activations for the backward "
                            f"pass. How much is that, in {unit}?",
                  prompt_zh=f"{zh}。每层为反向传播暂存 {expr} 字节激活值。合计多少（{unit}）？"),),
        world=_act_world(model, inputs), **_act_conventions(model),
    )


@template("memory.activation_layer", topic="memory", title="Activation memory per layer", title_zh="每层激活值显存",
          difficulty=2, target_seconds=120)
def activation_layer(rng):
    model, inputs, givens = _act_setup(rng)
    en, zh = _act_text(model, inputs)
    formula = _layer_formula(model)
    unit = unit_for(formula, **inputs)
    return Spec(
        givens=givens,
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{en}, no recomputation. How much activation memory does ONE transformer layer keep "
                            f"for the backward pass, in {unit}?",
                  prompt_zh=f"{zh}，不做重计算。单个 Transformer 层为反向传播暂存多少激活值显存（{unit}）？"),),
        world=_act_world(model, inputs), **_act_conventions(model),
    )


@template("memory.activation_model", topic="memory", title="Activation memory of the whole model",
          title_zh="全模型激活值显存", difficulty=2, target_seconds=120)
def activation_model(rng):
    model, inputs, givens = _act_setup(rng)
    en, zh = _act_text(model, inputs)
    per_layer = formulas.get(_layer_formula(model))
    whole = {"layers": model.layers, "layer_bytes": per_layer.evaluate(**inputs)}
    unit = unit_for("whole_model_activation_bytes", **whole)
    # the per-layer derivation of this model's own layer (GPT-style or Llama-style: SwiGLU, GQA), then × L
    lead = tuple(per_layer.worked(inputs, "en", takeaway=""))
    lead_zh = tuple(per_layer.worked(inputs, "zh", takeaway=""))
    return Spec(
        givens=givens + (given("layers", "Layers L", "层数 L", model.layers),),
        # the per-layer slips of the GPT formula (extras s, b, h, a) name nothing for the gated layer
        asks=(Ask(formula="whole_model_activation_bytes", inputs=whole, extras={} if model.gated else inputs,
                  unit=unit, explanation=lead, explanation_zh=lead_zh,
                  card_formulas=("activation_bytes_layer", "activation_bytes_layer_swiglu",
                                 "whole_model_activation_bytes"),
                  prompt_en=f"{en}, L = {model.layers} layers, no recomputation. How much activation memory do all "
                            f"{model.layers} layers keep together (summed over the pipeline stages that hold them), "
                            f"in {unit}?",
                  prompt_zh=f"{zh}，L = {model.layers} 层，不做重计算。全部 {model.layers} 层合计暂存多少激活值显存"
                            f"（各流水线阶段加总），单位 {unit}？"),),
        world=_act_world(model, inputs), **_act_conventions(model),
    )


RECOMPUTE = {
    "selective": ("activation_bytes_selective",
                  "selective recomputation (the attention scores, softmax and dropout are recomputed in the "
                  "backward pass; everything else is kept)",
                  "选择性重计算（注意力分数、Softmax 与 dropout 在反向时重算，其余保留）"),
    "full": ("activation_bytes_full_recompute",
             "full recomputation (only each layer's input is kept; the layer's forward is rerun in the backward "
             "pass)",
             "全量重计算（每层只保留该层输入，反向时重跑该层前向）"),
}


@template("memory.activation_recompute", topic="memory", title="Activation memory with recomputation",
          title_zh="重计算下的激活值显存", difficulty=2, target_seconds=90)
def activation_recompute(rng):
    model, inputs, givens = _act_setup(rng, gated_ok=False)
    formula, how_en, how_zh = RECOMPUTE[rng.choice(("selective", "full"))]
    inputs = {k: inputs[k] for k in ("s", "b", "h")}
    en, zh = _act_text(model, inputs)
    unit = unit_for(formula, **inputs)
    return Spec(
        givens=givens[:3],
        asks=(Ask(formula=formula, unit=unit,
                  prompt_en=f"{en}, with {how_en}. How much activation memory does one layer keep, in {unit}?",
                  prompt_zh=f"{zh}，采用{how_zh}。每层暂存多少激活值显存（{unit}）？"),),
        conventions_en=ACT_EN, conventions_zh=ACT_ZH, world=_act_world(model, inputs),
    )


@template("memory.activation_chain", topic="memory", title="Activations: per layer, whole model, recomputation",
          title_zh="激活值：每层、全模型与重计算", difficulty=2, target_seconds=420)
def activation_chain(rng):
    model, inputs, givens = _act_setup(rng, gated_ok=False)
    en, zh = _act_text(model, inputs, start=False)
    L = model.layers
    linear = {k: inputs[k] for k in ("s", "b", "h")}
    u1 = unit_for("activation_bytes_layer", **inputs)
    u2 = unit_for("whole_model_activation_bytes", layers=L,
                  layer_bytes=formulas.get("activation_bytes_layer").evaluate(**inputs))
    u3 = unit_for("activation_bytes_selective", **linear)
    u4 = unit_for("activation_bytes_full_recompute", **linear)
    u5 = unit_for("whole_model_activation_bytes", layers=L,
                  layer_bytes=formulas.get("activation_bytes_full_recompute").evaluate(**linear))
    return Spec(
        scenario_en=f"Training {en}, L = {L} layers; count the activations of all L layers together (whatever the "
                    "pipeline split, the stages hold them between them).",
        scenario_zh=f"训练 {zh}，L = {L} 层；把全部 L 层的激活值加在一起算（无论流水线如何切分，各阶段合起来要存这么多）。",
        givens=givens + (given("layers", "Layers L", "层数 L", L),),
        asks=(Ask(formula="activation_bytes_layer", unit=u1,
                  prompt_en=f"Without recomputation, how much activation memory does one layer keep, in {u1}?",
                  prompt_zh=f"不做重计算时，每层暂存多少激活值显存（{u1}）？"),
              # later steps build on the correct per-layer figure, not on the learner's answer
              Ask(formula="whole_model_activation_bytes", inputs={"layers": L, "layer_bytes": Ref(0)}, unit=u2,
                  extras=inputs,
                  prompt_en=f"Using the per-layer figure, how much do all {L} layers keep together, in {u2}?",
                  prompt_zh=f"按每层的结果，全部 {L} 层合计暂存多少（{u2}）？"),
              Ask(formula="activation_bytes_selective", inputs=linear, unit=u3,
                  prompt_en=f"With selective recomputation (attention scores, softmax and dropout recomputed), "
                            f"how much does one layer keep, in {u3}?",
                  prompt_zh=f"采用选择性重计算（重算注意力分数、Softmax 与 dropout），每层暂存多少（{u3}）？"),
              Ask(formula="activation_bytes_full_recompute", inputs=linear, unit=u4,
                  prompt_en=f"With full recomputation (only the layer input kept), how much per layer, in {u4}?",
                  prompt_zh=f"采用全量重计算（只保留层输入），每层暂存多少（{u4}）？"),
              Ask(formula="whole_model_activation_bytes", inputs={"layers": L, "layer_bytes": Ref(3)}, unit=u5,
                  prompt_en=f"With full recomputation, how much do all {L} layers keep together, in {u5}?",
                  prompt_zh=f"采用全量重计算时，全部 {L} 层合计暂存多少（{u5}）？")),
        conventions_en=ACT_EN, conventions_zh=ACT_ZH, world=_act_world(model, inputs),
    )


# --------------------------------------------------------------------------- #
# Activations with tensor and sequence parallelism (Korthikanti et al. 2022, Table 2): per layer and GPU,
# sbh(10 + 24/t + 5as/(ht)) with TP alone, sbh(34 + 5as/h)/t with TP + SP.  The GPT layer the formulas count:
# Korthikanti et al.'s own runs (Table 3) or a hypothetical GPT-style model with a layout its state fits.

ACT_TP_EN = ("bf16 activations (2 B), 1-byte dropout masks, a GPT-style layer (LayerNorm, attention, 4h GELU MLP, "
             "dropout) as in Megatron-LM (Korthikanti et al. 2022); attention scores materialised (no FlashAttention); "
             "no recomputation. Tensor parallelism of degree t splits the attention heads and the MLP over t GPUs; "
             "sequence parallelism, where used, splits the LayerNorm and dropout region along the sequence over the "
             "same t GPUs. Memory per GPU. MB = 10⁶ B, GB = 10⁹ B.")
ACT_TP_ZH = ("激活值为 bf16（2 B），dropout 掩码每元素 1 B，GPT 式层（LayerNorm、注意力、4h 的 GELU MLP、dropout，"
             "Megatron-LM 口径，Korthikanti 等 2022）；注意力分数完整存储（不用 FlashAttention）；不做重计算。"
             "张量并行度 t：注意力头和 MLP 切到 t 张卡上；开序列并行时，在同样的 t 张卡上把 LayerNorm 与 dropout "
             "区域沿序列维切分。按每张卡计。MB = 10⁶ B，GB = 10⁹ B。")
# A hypothetical model's training state (16Φ, unsharded within the TP × PP group) stays within this per GPU.
TP_STATE_PER_GPU = 40e9
ACT_PER_GPU = 80e9  # and its first pipeline stage's activations within an 80 GB GPU (A100 80GB, H100)


def _tp_run(rng, *, min_pp: int = 1):
    """A GPT-style training run with tensor parallelism: (model, t, PP, s, b).  Half of the time one of Korthikanti
    et al.'s own (Table 3, s = 2048), else a hypothetical GPT-style model whose 16Φ fits its TP × PP slice and whose
    activations fit a GPU; always one where the replicated 10sbh is a visible share (TP and TP + SP differ by more
    than 10 %)."""
    runs = [r for r in models.MEGATRON_RUNS if r[2] >= min_pp]
    tp, sp = formulas.get("activation_bytes_layer_tp"), formulas.get("activation_bytes_layer_tp_sp")
    while True:
        if rng.random() < 0.5:
            model, t, pp, b = rng.choice(runs)
            s = 2048
        else:
            a = rng.choice((16, 24, 32, 40, 48, 64, 80, 96))
            h, layers = 128 * a, rng.choice((24, 32, 40, 48, 64, 80, 96))
            model = models.Model("hypothetical", "a hypothetical GPT-style model", layers, h, a, a, 128, 4 * h,
                                 50257, 12.0 * layers * h * h, False, "made up for the problem", max_seq=4096,
                                 norm="LayerNorm", bias=True, dropout=True, positions="learned")
            t = rng.choice([x for x in (2, 4, 8) if a % x == 0])
            fits = [p for p in (1, 2, 4, 8, 16) if p >= min_pp and layers % p == 0
                    and 16 * model.params / (t * p) <= TP_STATE_PER_GPU]
            if not fits:
                continue
            pp, s = fits[0], rng.choice((1024, 2048, 4096))
            b = rng.choice([x for x in MICRO_BATCHES if s * x <= 8192])
        inputs = {"s": s, "b": b, "h": model.d_model, "a": model.n_heads, "t": t}
        # a made-up run must be one a person would start: the first 1F1B stage's activations (L layers' worth)
        # fit an 80 GB GPU even with TP alone (Korthikanti's own runs are kept as published)
        made_up_fits = model.key != "hypothetical" or model.layers * tp.evaluate(**inputs) <= ACT_PER_GPU
        if made_up_fits and tp.evaluate(**inputs) / sp.evaluate(**inputs) > 1.1:
            return model, t, pp, s, b


def _tp_givens(inputs) -> tuple:
    return (given("s", "Sequence length s", "序列长度 s", inputs["s"]),
            given("b", "Micro-batch size b", "微批次大小 b", inputs["b"]),
            given("h", "Hidden size h", "隐藏维度 h", inputs["h"]),
            given("a", "Attention heads a", "注意力头数 a", inputs["a"]),
            given("t", "Tensor-parallel degree t", "张量并行度 t", inputs["t"]))


def _tp_text(model, t, pp, s, b, start: bool = True) -> tuple[str, str]:
    """``MT-NLG 530B (h = 20480, a = 128 heads) trained with TP = 8, PP = 35, sequence length s = 2048, micro-batch
    b = 1`` and its Chinese."""
    name_zh = model.name.replace("a hypothetical GPT-style model", "一个假想的 GPT 式模型")
    run = " (Korthikanti et al.'s run)" if model in models.MEGATRON_GPT + (models.GPT3_175B,) and s == 2048 else ""
    run_zh = "（Korthikanti 等的实验配置）" if run else ""
    en = (f"{cap(model.name) if start else model.name} (h = {model.d_model}, a = {model.n_heads} heads) trained with TP = {t}, PP = {pp}{run}, "
          f"sequence length s = {s}, micro-batch b = {b}")
    zh = (f"{name_zh}（h = {model.d_model}，a = {model.n_heads} 个头）以 TP = {t}、PP = {pp} 训练{run_zh}，"
          f"序列长度 s = {s}，微批次 b = {b}")
    return en, zh


def _mb(x: float) -> str:
    """A per-layer figure in MB, so the figures a line compares read in one unit."""
    return fmt_quantity(x, "bytes", unit="MB")


def _tp_world(model, t, pp, s, b) -> World:
    return World(model=model, precision="bf16", n_gpus=t * pp, tp=t, pp=pp, seq=s, batch=b, holds=("train",))


def _tp_setup(rng, *, start: bool = True, min_pp: int = 1):
    model, t, pp, s, b = _tp_run(rng, min_pp=min_pp)
    inputs = {"s": s, "b": b, "h": model.d_model, "a": model.n_heads, "t": t}
    return model, t, pp, inputs, _tp_text(model, t, pp, s, b, start), _tp_world(model, t, pp, s, b)


TP_GIVEN_EN = ("With TP alone, one layer keeps s·b·h·(10 + 24/t + 5·a·s/(h·t)) bytes of activations on each GPU: "
               "attention and MLP internals are split t ways, the 10sbh of the LayerNorm and dropout region stays "
               "whole on every GPU.")
TP_GIVEN_ZH = ("只开张量并行时，每层在每张卡上保存 s·b·h·(10 + 24/t + 5·a·s/(h·t)) 字节激活值：注意力和 MLP 内部切成 t 份，"
               "LayerNorm 与 dropout 区域的 10sbh 每张卡完整一份。")
SP_GIVEN_EN = ("With TP and sequence parallelism over the same t GPUs, every term of the layer's 34sbh + 5as²b is "
               "split: s·b·h·(34 + 5·a·s/h)/t bytes per GPU.")
SP_GIVEN_ZH = "张量并行加序列并行（同样的 t 张卡）时，整层 34sbh + 5as²b 的每一项都被切分：每张卡 s·b·h·(34 + 5·a·s/h)/t 字节。"


def _tp_spec(rng, formula: str, prompt_en, prompt_zh) -> Spec:
    """One activation-per-GPU question: the run drawn by :func:`_tp_setup`, asked about ``formula``;
    ``prompt_en``/``prompt_zh`` turn (the run's text, t, unit) into the question."""
    model, t, pp, inputs, (en, zh), world = _tp_setup(rng)
    u = unit_for(formula, **inputs)
    return Spec(givens=_tp_givens(inputs),
                asks=(Ask(formula=formula, unit=u, prompt_en=prompt_en(en, t, u), prompt_zh=prompt_zh(zh, t, u)),),
                conventions_en=ACT_TP_EN, conventions_zh=ACT_TP_ZH, world=world)


@template("memory.activation_tp_given", topic="memory", title="Activation memory per layer with TP (formula given)",
          title_zh="张量并行下每层激活值显存（给出公式）", difficulty=1, target_seconds=90, source="korthikanti2022")
def activation_tp_given(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp",
                    lambda en, t, u: f"{en}, no sequence parallelism. {TP_GIVEN_EN} How much is that per GPU, in {u}?",
                    lambda zh, t, u: f"{zh}，不开序列并行。{TP_GIVEN_ZH}每张卡合计多少（{u}）？")


@template("memory.activation_tp", topic="memory", title="Activation memory per layer with TP",
          title_zh="张量并行下每层激活值显存", difficulty=2, target_seconds=120, source="korthikanti2022")
def activation_tp(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp",
                    lambda en, t, u: f"{en}: tensor parallelism only, no sequence parallelism. How much activation "
                                     f"memory does one layer keep on each GPU for the backward pass, in {u}?",
                    lambda zh, t, u: f"{zh}：只开张量并行，不开序列并行。每张卡上单层为反向传播暂存多少激活值显存（{u}）？")


@template("memory.activation_tp_sp_given", topic="memory",
          title="Activation memory per layer with TP + sequence parallelism (formula given)",
          title_zh="张量并行 + 序列并行下每层激活值显存（给出公式）", difficulty=1, target_seconds=90,
          source="korthikanti2022")
def activation_tp_sp_given(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp_sp",
                    lambda en, t, u: f"{en}, with sequence parallelism. {SP_GIVEN_EN} How much is that per GPU, "
                                     f"in {u}?",
                    lambda zh, t, u: f"{zh}，开序列并行。{SP_GIVEN_ZH}每张卡合计多少（{u}）？")


@template("memory.activation_tp_sp", topic="memory", title="Activation memory per layer with TP + sequence parallelism",
          title_zh="张量并行 + 序列并行下每层激活值显存", difficulty=2, target_seconds=120, source="korthikanti2022")
def activation_tp_sp(rng):
    return _tp_spec(rng, "activation_bytes_layer_tp_sp",
                    lambda en, t, u: f"{en}, with sequence parallelism over the same {t} GPUs. How much activation "
                                     f"memory does one layer keep on each GPU for the backward pass, in {u}?",
                    lambda zh, t, u: f"{zh}，并在同样的 {t} 张卡上开序列并行。每张卡上单层为反向传播暂存多少激活值显存（{u}）？")


# Which activations sequence parallelism splits that tensor parallelism leaves whole: the LayerNorm and dropout region.
SP_REGION = Choice("norms+dropout", ("norms and dropout", "layernorm and dropout", "layernorm+dropout", "layernorm",
                                     "ln and dropout", "ln+dropout", "10sbh", "归一化与 dropout", "LayerNorm 和 dropout"),
                   "LayerNorm 与 dropout")
SP_NOT = (Choice("scores", ("attention scores", "softmax", "5as²b", "5as2b", "分数", "注意力得分"), "注意力分数"),
          Choice("MLP", ("gelu", "mlp activations", "16sbh", "ffn"), "MLP"),
          Choice("QKV", ("q k v", "q, k, v", "qkv projections", "6sbh"), "QKV"))


@template("memory.activation_tp_chain", topic="memory",
          title="Activations per GPU: one GPU → TP → TP + SP → what SP splits → the first pipeline stage",
          title_zh="每卡激活值：单卡 → 张量并行 → 加序列并行 → 序列并行切了什么 → 流水线第一阶段", difficulty=2,
          target_seconds=420, source="korthikanti2022, narayanan2021")
def activation_tp_chain(rng):
    model, t, pp, inputs, (en, zh), world = _tp_setup(rng, min_pp=2)
    L, per = model.layers, model.layers // pp
    plain = {k: inputs[k] for k in ("s", "b", "h", "a")}
    f_tp, f_sp = formulas.get("activation_bytes_layer_tp"), formulas.get("activation_bytes_layer_tp_sp")
    tp_v, sp_v = f_tp.evaluate(**inputs), f_sp.evaluate(**inputs)
    u0 = unit_for("activation_bytes_layer", **plain)
    u1, u2 = unit_for("activation_bytes_layer_tp", **inputs), unit_for("activation_bytes_layer_tp_sp", **inputs)
    u4 = unit_for("stage_activation_bytes", inflight=pp, stage_layers=per, layer_bytes=sp_v)
    diff = tp_v - sp_v
    return Spec(
        scenario_en=f"{en}, L = {L} layers, 1F1B pipeline schedule: where do the activations go as the layer is "
                    "split?",
        scenario_zh=f"{zh}，L = {L} 层，1F1B 流水线调度：层被切分后，激活值显存怎么变？",
        givens=_tp_givens(inputs) + (given("layers", "Layers L", "层数 L", L),
                                      given("p", "Pipeline stages PP", "流水线阶段数 PP", pp)),
        asks=(Ask(formula="activation_bytes_layer", inputs=plain, unit=u0,
                  prompt_en=f"Without any model parallelism, how much activation memory would one layer keep, in {u0}?",
                  prompt_zh=f"不做任何模型并行时，单层要暂存多少激活值显存（{u0}）？"),
              Ask(formula="activation_bytes_layer_tp", inputs=inputs, unit=u1,
                  prompt_en=f"With tensor parallelism t = {t} (no sequence parallelism), how much does one layer keep "
                            f"on each GPU, in {u1}?",
                  prompt_zh=f"张量并行 t = {t}（不开序列并行）时，单层在每张卡上暂存多少（{u1}）？"),
              Ask(formula="activation_bytes_layer_tp_sp", inputs=inputs, unit=u2,
                  prompt_en=f"Adding sequence parallelism over the same {t} GPUs, how much per GPU, in {u2}?",
                  prompt_zh=f"再在同样的 {t} 张卡上加序列并行，每张卡多少（{u2}）？"),
              Ask(choices=(SP_REGION,) + SP_NOT, answer=SP_REGION.key,
                  prompt_en="Which activations does sequence parallelism split that tensor parallelism alone keeps "
                            "whole on every GPU: norms+dropout, scores, MLP or QKV?",
                  prompt_zh="哪部分激活是只开张量并行时每张卡都完整保存、开了序列并行才被切开的：LayerNorm 与 dropout、"
                            "注意力分数、MLP 还是 QKV？",
                  explanation=(f"TP alone: {_mb(tp_v)} per GPU; TP + SP: {_mb(sp_v)}; the difference 10sbh·(1 − 1/t) "
                               f"= {_mb(diff)} is the LayerNorm and dropout region: the two LayerNorm inputs (4sbh), "
                               "their outputs the QKV and first MLP GEMMs read (4sbh), the two dropout masks (2sbh).",
                               "Attention (Q, K, V, the scores) and the MLP were already split t ways by tensor "
                               "parallelism: sequence parallelism gives each GPU s/t tokens of the rest."),
                  explanation_zh=(f"只开张量并行：每张卡 {_mb(tp_v)}；加序列并行：{_mb(sp_v)}；两者之差 10sbh·(1 − 1/t) "
                                  f"= {_mb(diff)}，正是 LayerNorm 与 dropout 区域：两个 LayerNorm 的输入（4sbh）、"
                                  "QKV 与 MLP 第一个 GEMM 读入的 LayerNorm 输出（4sbh）、两个 dropout 掩码（2sbh）。",
                                  "注意力（Q、K、V、注意力分数）和 MLP 早已被张量并行切成 t 份：序列并行让每张卡只保存"
                                  "其余部分中自己那 s/t 个 token。"),
                  takeaway="TP alone leaves 10sbh per layer replicated on every GPU; sequence parallelism splits "
                           "those too, so activations shrink by the full t.",
                  takeaway_zh="只开张量并行时，每层 10sbh 的激活在每张卡上各存一份；序列并行把它们也切开，激活显存才"
                              "整体缩小 t 倍。",
                  card_formulas=("activation_bytes_layer_tp", "activation_bytes_layer_tp_sp")),
              # builds on step 3's correct per-layer figure (TP + SP), not on the learner's answer
              Ask(formula="stage_activation_bytes", inputs={"inflight": pp, "stage_layers": per, "layer_bytes": Ref(2)},
                  unit=u4,
                  prompt_en=f"With PP = {pp} stages of {per} layers and the 1F1B schedule (the first stage runs P "
                            "forwards before its first backward), how much activation memory does each GPU of the "
                            f"FIRST stage hold at its peak, with TP + SP and no recomputation, in {u4}?",
                  prompt_zh=f"PP = {pp} 个阶段、每阶段 {per} 层，采用 1F1B 调度（第一阶段在第一次反向之前先做 P 次前向）。"
                            f"开张量并行和序列并行、不做重计算时，第一阶段的每张卡在峰值时保存多少激活值显存（{u4}）？",
                  decomposition=("1F1B: the first stage runs P forwards before its first backward, so it holds P "
                                 "micro-batches, each through its L/P layers: P × L/P = L layers' worth of the TP + SP "
                                 "figure per layer",),
                  decomposition_zh=("1F1B：第一阶段在第一次反向之前先做 P 次前向，所以同时保存 P 个微批次，每个经过它的 "
                                    "L/P 层：P × L/P = L 层的量（每层按张量并行 + 序列并行的每卡数值）",),
                  takeaway="pipeline parallelism does not shrink the first stage's activations: P micro-batches × L/P "
                           "layers = L layers' worth, whatever P is; only TP + SP (÷ t) and recomputation cut them.",
                  takeaway_zh="流水线并行并不减少第一阶段的激活显存：P 个微批次 × L/P 层 = L 层的量，与 P 无关；"
                              "只有张量并行 + 序列并行（÷ t）和重计算能把它降下来。")),
        conventions_en=ACT_TP_EN, conventions_zh=ACT_TP_ZH, world=world,
    )
