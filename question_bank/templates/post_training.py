"""Post-training memory (issue #26): LoRA's trainable parameters and the static memory of LoRA training
(a frozen bf16 base + 16 bytes per adapter parameter).  Models with multi-head attention (Llama-2 7B / 13B),
so q, k, v and o are all d × d.
"""

from __future__ import annotations

from .. import kit, models
from ..base import Ask, Ref, Spec, World, given, template
from .memory import ROUND_PHI_B, nominal_phi, phi_text
from .roofline import an

MHA = ("llama2_7b", "llama2_13b")
CONV_EN = ("Conventions: the adapted attention projections are each d × d here (multi-head attention); "
           "adapter weights train with mixed-precision Adam (16 B per parameter); GB = 1e9 B.")
CONV_ZH = "约定：被适配的注意力投影在这里都是 d × d（多头注意力）；适配器用混合精度 Adam 训练（每参数 16 B）；GB = 1e9 B。"


# which matrices are adapted: the LoRA paper's q and v, or all four attention projections
TARGETS = ((2, "q and v", "q 和 v"), (4, "q, k, v and o", "q、k、v、o"))


def _setup(rng):
    m = models.get(rng.choice(MHA))
    n_mat, en, zh = rng.choice(TARGETS)
    return m, rng.choice((4, 8, 16, 32, 64, 128)), n_mat, en, zh


def _givens(m, r):
    return (given("model", "Model", "模型", m.name), kit.model(m, "layers"),
            kit.model(m, "d_model", name="d_in"), given("rank", "LoRA rank r", "LoRA 的秩 r", r))


def _inputs(m, r, n_mat):
    return {"layers": m.layers, "d_in": m.d_model, "d_out": m.d_model, "rank": r, "n_matrices": n_mat}


@template("memory.lora_params", topic="memory", title="Trainable parameters of a LoRA adapter",
          title_zh="LoRA 适配器的可训练参数量", difficulty=2, target_seconds=120, source="hu2021")
def lora_params(rng):
    m, r, n_mat, t_en, t_zh = _setup(rng)
    return Spec(
        givens=_givens(m, r),
        asks=(Ask(formula="lora_params", unit="", inputs=_inputs(m, r, n_mat),
                  prompt_en=f"{m.name} ({m.layers} layers, hidden size {m.d_model:,}) is fine-tuned with rank-{r} "
                            f"LoRA on {t_en} of every layer. How many parameters does the adapter train?",
                  prompt_zh=f"{m.name}（{m.layers} 层，隐藏维度 {m.d_model:,}）用秩为 {r} 的 LoRA 微调，适配每层的 {t_zh}。"
                            "适配器要训练多少个参数？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m),
    )


@template("memory.lora_chain", topic="memory", title="LoRA: adapter parameters → training memory",
          title_zh="LoRA：适配器参数量 → 训练显存", difficulty=3, target_seconds=240, source="hu2021, dettmers2023")
def lora_chain(rng):
    m, r, n_mat, t_en, t_zh = _setup(rng)
    phi = nominal_phi(m)
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(phi)}, {m.layers} layers, hidden size {m.d_model:,}) is fine-tuned "
                    f"with rank-{r} LoRA on {t_en} of every layer; the base stays frozen in bf16.",
        scenario_zh=f"{m.name}（Φ = {phi_text(phi)}，{m.layers} 层，隐藏维度 {m.d_model:,}）用秩为 {r} 的 LoRA 微调，"
                    f"适配每层的 {t_zh}；基座冻结，保持 bf16。",
        givens=_givens(m, r) + (given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),),
        asks=(Ask(formula="lora_params", unit="", inputs=_inputs(m, r, n_mat),
                  prompt_en="How many parameters does the adapter train?",
                  prompt_zh="适配器要训练多少个参数？"),
              Ask(formula="lora_train_bytes", unit="GB",
                  inputs={"phi": phi, "phi_trainable": Ref(0), "bytes_per_frozen_param": 2},
                  prompt_en="What static memory (weights, gradients, optimizer state) does the training hold, in GB, "
                            "activations aside?",
                  prompt_zh="不计激活，训练的静态显存（权重、梯度、优化器状态）是多少 GB？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m),
    )


# --------------------------------------------------------------------------- #
# QLoRA: the frozen base in NF4 with double quantisation (Dettmers et al. 2023)

QLORA_MODELS = ("llama2_13b", "llama2_70b", "llama31_8b", "llama31_70b", "qwen3_8b", "qwen3_32b", "llama3_405b")
QLORA_ROUND_B = tuple(b for b in ROUND_PHI_B if 3 <= b <= 180)  # a dense model fine-tuned on one node or less
NF4_BITS = 4.127  # 4 + 8/64 + 32/(64·256): the QLoRA paper's figure
NF4_EN = ("QLoRA stores the frozen base in 4-bit NF4, in blocks of 64 weights; each block's scale constant is itself "
          "quantised to 8 bits, with one fp32 constant per 256 blocks (double quantisation).")
NF4_ZH = "QLoRA 把冻结的基座存为 4 比特 NF4，每 64 个权重一块；每块的缩放常数本身再量化为 8 比特，每 256 块共用一个 fp32 常数（双重量化）。"
QLORA_CONV_EN = NF4_EN + " GB = 1e9 B; activations and buffers aside."
QLORA_CONV_ZH = NF4_ZH + "GB = 1e9 B；不计激活值和缓冲区。"
NF4_LINES = (f"bits per weight = 4 + 8/64 + 32/(64 × 256) = {NF4_BITS}",)
NF4_LINES_ZH = (f"每个权重的比特数 = 4 + 8/64 + 32/(64 × 256) = {NF4_BITS}",)


def _nf4_givens() -> tuple:
    return (given("block", "NF4 block size", "NF4 块大小", 64),
            given("constants", "Block constants", "块常数", "8-bit, one fp32 constant per 256 blocks",
                  value_zh="8 比特，每 256 块一个 fp32 常数"))


@template("memory.qlora_base", topic="memory", title="QLoRA: memory of the 4-bit base",
          title_zh="QLoRA：4 比特基座的显存", difficulty=3, target_seconds=150, source="dettmers2023")
def qlora_base(rng):
    i = rng.randrange(len(QLORA_MODELS) + len(QLORA_ROUND_B))
    if i < len(QLORA_MODELS):
        m = models.get(QLORA_MODELS[i])
        name, name_zh, phi = m.name, m.name, nominal_phi(m)
    else:
        phi = QLORA_ROUND_B[i - len(QLORA_MODELS)] * 1e9
        name, name_zh = f"{an(phi_text(phi))} {phi_text(phi)}-parameter dense model", f"一个 {phi_text(phi)} 参数的稠密模型"
    world = World(model=m) if i < len(QLORA_MODELS) else World(phi=phi)
    return Spec(
        givens=(given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),) + _nf4_givens(),
        asks=(Ask(formula="qlora_base_bytes", unit="GB", inputs={"phi": phi, "bits_per_weight": NF4_BITS},
                  explanation=NF4_LINES, explanation_zh=NF4_LINES_ZH,
                  prompt_en=f"{name[:1].upper() + name[1:]} (Φ = {phi_text(phi)}) is fine-tuned with QLoRA. How many "
                            "GB does its frozen base take in GPU memory?",
                  prompt_zh=f"用 QLoRA 微调{'' if name_zh.startswith('一') else ' '}{name_zh}（Φ = {phi_text(phi)}）。"
                            "冻结的基座占多少 GB 显存？"),),
        conventions_en=QLORA_CONV_EN, conventions_zh=QLORA_CONV_ZH,
        world=world,
    )


@template("memory.qlora_chain", topic="memory", title="QLoRA: 4-bit base → adapter parameters → training memory",
          title_zh="QLoRA：4 比特基座 → 适配器参数量 → 训练显存", difficulty=3, target_seconds=300,
          source="dettmers2023, hu2021")
def qlora_chain(rng):
    m, r, n_mat, t_en, t_zh = _setup(rng)
    phi = nominal_phi(m)
    return Spec(
        scenario_en=f"{m.name} (Φ = {phi_text(phi)}, {m.layers} layers, hidden size {m.d_model:,}) is fine-tuned with "
                    f"QLoRA: the base frozen in NF4, rank-{r} LoRA adapters on {t_en} of every layer, trained in bf16 "
                    "with mixed-precision Adam.",
        scenario_zh=f"用 QLoRA 微调 {m.name}（Φ = {phi_text(phi)}，{m.layers} 层，隐藏维度 {m.d_model:,}）：基座冻结为 NF4，"
                    f"每层的 {t_zh} 上加秩为 {r} 的 LoRA 适配器，用 bf16 混合精度 Adam 训练。",
        givens=_givens(m, r) + (given("phi", "Parameters Φ", "参数量 Φ", phi, "count", "params"),) + _nf4_givens(),
        asks=(Ask(formula="qlora_base_bytes", unit="GB", inputs={"phi": phi, "bits_per_weight": NF4_BITS},
                  explanation=NF4_LINES, explanation_zh=NF4_LINES_ZH,
                  prompt_en="How many GB does the frozen NF4 base take?",
                  prompt_zh="冻结的 NF4 基座占多少 GB？"),
              Ask(formula="lora_params", unit="", inputs=_inputs(m, r, n_mat),
                  prompt_en="How many parameters do the adapters train?",
                  prompt_zh="适配器要训练多少个参数？"),
              Ask(formula="lora_train_bytes", unit="GB",
                  inputs={"phi": phi, "phi_trainable": Ref(1), "bytes_per_frozen_param": NF4_BITS / 8},
                  explanation=(f"bytes per frozen parameter = {NF4_BITS} bits ÷ 8 = {NF4_BITS / 8:.4g} B",),
                  explanation_zh=(f"每个冻结参数的字节数 = {NF4_BITS} 比特 ÷ 8 = {NF4_BITS / 8:.4g} B",),
                  takeaway="QLoRA's memory is the 4-bit base plus 16 bytes per adapter parameter: the adapters' "
                           "training state is a rounding error next to the base, so quantising the base is what "
                           "lets a large model fine-tune on one GPU.",
                  takeaway_zh="QLoRA 的显存 = 4 比特基座 + 每个适配器参数 16 字节：适配器的训练状态与基座相比可以忽略，"
                              "所以量化基座才是大模型能在一张卡上微调的原因。",
                  prompt_en="What static memory (base, adapter weights, gradients and optimizer state) does the "
                            "training hold, in GB, activations aside?",
                  prompt_zh="不计激活，训练的静态显存（基座、适配器的权重、梯度和优化器状态）是多少 GB？")),
        conventions_en=CONV_EN + " " + NF4_EN, conventions_zh=CONV_ZH + NF4_ZH,
        world=World(model=m),
    )
