"""Optimizer-state memory: the states alone, by optimizer (AdamW in fp32 or bf16, 8-bit Adam, one-buffer optimizers).

"Fine-tune 70B on 8 × 80 GB: AdamW vs 8-bit Adam?"  The states are asked apart from the weights, gradients and
fp32 master weights, whose mixing-in is the slip the grader names.
"""

from __future__ import annotations

from engine.formulas.inputs import OPTIMIZER

from ...spec import Ask, Spec
from ...template import template
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
