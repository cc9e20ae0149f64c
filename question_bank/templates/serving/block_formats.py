"""Block-scaled formats as presets of group quantisation: MXFP4, NVFP4 and MXFP8 (OCP MX v1.0, NVIDIA NVFP4).

"Is NVFP4 really 4 bits?"  Each block shares an 8-bit scale: MX blocks hold 32 values, NVFP4's 16 (plus one fp32
scale per tensor, negligible).  The slips the grader names: the bare 4 bits, and MX's block of 32 for NVFP4.
"""

from __future__ import annotations

from engine.formulas.quantisation import QUANT_PRESETS

from ... import hardware, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..model_params import nominal_phi, phi_text

SCALES = {"MXFP4": ("an E8M0 (power-of-two) scale", "一个 E8M0（2 的幂）缩放因子"),
          "NVFP4": ("an E4M3 scale, plus one fp32 scale per tensor (negligible)",
                    "一个 E4M3 缩放因子，另有每个张量一个 fp32 缩放因子（可忽略）"),
          "MXFP8": ("an E8M0 (power-of-two) scale", "一个 E8M0（2 的幂）缩放因子")}
CONV_EN = "Bits per weight = the value's bits + the block's shared scale bits ÷ the values per block. GB = 10⁹ B."
CONV_ZH = "每个权重的位数 = 数值本身的位数 + 块内共享缩放因子的位数 ÷ 每块的数值个数。GB = 10⁹ B。"


@template("serving.block_format_chain", topic="serving", title="Bits per weight of MXFP4, NVFP4 or MXFP8 → weight bytes",
          title_zh="MXFP4、NVFP4、MXFP8 的每权重位数 → 权重字节数", difficulty=1, target_seconds=120, source="ocp_mx, nvfp4")
def block_format_chain(rng):
    fmt = rng.choice(tuple(QUANT_PRESETS))
    bits, block, scale, zero = QUANT_PRESETS[fmt]
    m = rng.choice(models.DENSE + models.MOE_MODELS)
    gpu = hardware.get(rng.choice(("b200", "b300", "gb200", "gb300")))  # chips that compute in these formats
    phi = nominal_phi(m)
    scale_en, scale_zh = SCALES[fmt]
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("phi", "Parameters Φ", "参数量 Φ", phi),
                given("bits", "Bits per value", "每个数值的位数", bits, "bits", "bit"),
                given("group_size", "Values per block", "每块的数值个数", block),
                given("scale_bits", "Scale bits per block", "每块缩放因子的位数", scale, "bits", "bit")),
        asks=(Ask(formula="quant_bits_per_weight", unit="bit", tolerance=0.01,
                  inputs={"bits": bits, "group_size": block, "scale_bits": scale, "zero_bits": zero},
                  prompt_en=f"{m.name} (Φ = {phi_text(phi)}) is served on {gpu.name}s in {fmt}: blocks of {block} values share "
                            f"{scale_en}. How many bits does each weight take in memory?",
                  prompt_zh=f"{m.name}（Φ = {phi_text(phi)}）在 {gpu.name} 上以 {fmt} 服务：每 {block} 个数值共享{scale_zh}。每个权重在"
                            "显存里占多少位（bit）？"),
              Ask(formula="quant_weights_bytes", unit="GB", tolerance=0.01, inputs={"phi": phi, "bits_per_weight": Ref(0)},
                  extras={"bits": bits},
                  prompt_en="How much memory do the weights take, in GB?", prompt_zh="权重一共占多少显存（GB）？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m, gpu=gpu),
    )
