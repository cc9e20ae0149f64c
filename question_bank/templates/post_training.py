"""Post-training memory (issue #26): LoRA's trainable parameters and the static memory of LoRA training
(a frozen bf16 base + 16 bytes per adapter parameter).  Models with multi-head attention (Llama-2 7B / 13B),
so q, k, v and o are all d × d.
"""

from __future__ import annotations

from .. import models
from ..base import Ask, Ref, Spec, World, given, template
from .memory import nominal_phi, phi_text

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
    return (given("model", "Model", "模型", m.name), given("layers", "Layers L", "层数 L", m.layers),
            given("d_in", "Hidden size d", "隐藏维度 d", m.d_model), given("rank", "LoRA rank r", "LoRA 的秩 r", r))


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
