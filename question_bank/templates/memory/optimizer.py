"""Optimizer-state memory: the states alone, by optimizer (AdamW in fp32 or bf16, 8-bit Adam, one-buffer optimizers).

"Fine-tune 70B on 8 × 80 GB: AdamW vs 8-bit Adam?"  The states are asked apart from the weights, gradients and
fp32 master weights, whose mixing-in is the slip the grader names.
"""

from __future__ import annotations

from engine.formulas.inputs import OPTIMIZER

from ... import models
from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import an
from ..model_params import model_phi, model_world, phi_given

CONV_EN = ("Optimizer states only: the model's weights, its gradients and any fp32 master weights are not counted. "
           "GB = 10⁹ B.")
CONV_ZH = "只算优化器状态：模型权重、梯度和 fp32 主权重都不计。GB = 10⁹ B。"
# How a prompt names each optimizer (its state sizes are what the learner supplies; the card lists them).
NAMED = {"adamw": ("AdamW with fp32 moments", "AdamW（fp32 的一阶矩和二阶矩）"),
         "adamw_bf16": ("AdamW with bf16 moments, as DeepSeek trained V3", "AdamW（bf16 的一阶矩和二阶矩，DeepSeek 训练 V3 的做法）"),
         "adamw_8bit": ("8-bit block-wise Adam (bitsandbytes)", "8 位分块 Adam（bitsandbytes）"),
         "sgd_momentum": ("SGD with fp32 momentum", "带 fp32 动量的 SGD"),
         "lion": ("Lion, fp32 state", "Lion（fp32 状态）"),
         "muon": ("Muon on every weight matrix, fp32 state", "Muon（用于所有权重矩阵，fp32 状态）")}


@template("memory.optimizer_state", topic="memory", title="Optimizer-state memory by optimizer",
          title_zh="不同优化器的优化器状态显存", difficulty=1, target_seconds=60,
          source="loshchilov2019, dettmers2022, deepseek_v3")
def optimizer_state(rng):
    name, phi = model_phi(rng)
    c = OPTIMIZER.choice(rng.choice([c.key for c in OPTIMIZER.choices]))
    return Spec(
        givens=(phi_given(phi),),
        asks=(Ask(formula="optimizer_state_bytes", unit="GB", inputs={"phi": phi, "optimizer": OPTIMIZER.value_of(c.key)},
                  prompt_en=f"Fine-tuning {name} with {NAMED[c.key][0]}: how much memory do the optimizer states "
                            "alone take across the whole model, in GB?",
                  prompt_zh=f"用 {NAMED[c.key][1]} 微调 {name}：整个模型光优化器状态就占多少显存（GB）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=model_world(name, phi),
    )


@template("memory.adafactor_state", topic="memory", title="Adafactor's state for one weight matrix",
          title_zh="Adafactor 为一个权重矩阵保存的状态", difficulty=2, target_seconds=60, source="shazeer2018")
def adafactor_state(rng):
    m = rng.choice(models.DENSE)
    kv_width = m.n_kv_heads * m.d_head
    # (rows, cols, which matrix): the attention and MLP matrices of one layer, stored as (out, in)
    matrices = ((m.d_model, m.d_model, "query projection", "query 投影"),
                (kv_width, m.d_model, "key projection", "key 投影"),
                (m.ffn, m.d_model, "MLP up-projection", "MLP 的 up 投影"),
                (m.d_model, m.ffn, "MLP down-projection", "MLP 的 down 投影"),
                (m.d_model + 2 * kv_width, m.d_model, "fused QKV projection", "合并的 QKV 投影"),
                (m.vocab, m.d_model, "embedding table", "词嵌入表"))
    rows, cols, which_en, which_zh = rng.choice(matrices)
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("rows", "Rows", "行数", rows),
                given("cols", "Columns", "列数", cols)),
        asks=(Ask(formula="adafactor_state_elems", unit="",
                  prompt_en=f"{m.name}'s {which_en} is {an(f'{rows:,}')} × {cols:,} matrix. How many values does "
                            "Adafactor (default settings) keep as optimizer state for it?",
                  prompt_zh=f"{m.name} 的 {which_zh}是一个 {rows:,} × {cols:,} 的矩阵。Adafactor（默认设置）为它保存"
                            "多少个优化器状态值？"),),
        conventions_en="Adafactor's defaults: a factored second moment and no first moment (β1 = 0).",
        conventions_zh="Adafactor 的默认设置：二阶矩分解保存，不保存一阶矩（β1 = 0）。",
        world=World(model=m),
    )
