"""Weight-quantisation templates: bits per weight, quantised memory, decode speed-up.

Weight-quantisation templates: bits per weight of a group-quantisation scheme, the memory of a quantised
model, and the decode speed-up it buys.
"""

from __future__ import annotations

from engine.count_nouns import NotCounted
from engine.units import fmt_number, round_sig

from ... import hardware, kit, models
from ...models import Model
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..chip_givens import an
from ..model_params import nominal_phi
from ..served_models import DECODE_CONV_EN, DECODE_CONV_ZH, YES_NO, draw_seq, gb, params_given, weight_bytes
from ..serving.latency import evaluate

# --------------------------------------------------------------------------- #
# Quantisation (family 5)

# (name en, name zh, bits, group size, scale bits, zero bits, where it comes from)
QUANT_SCHEMES = (
    ("int4, group 128, fp16 scale, symmetric (no zero point)", "int4，每组 128 个，fp16 缩放因子，对称（无零点）",
     4, 128, 16, 0),
    ("int4, group 128, fp16 scale and 4-bit zero point (GPTQ / AWQ packing)",
     "int4，每组 128 个，fp16 缩放因子加 4 位零点（常见的打包方式）", 4, 128, 16, 4),
    ("int4, group 64, fp16 scale and fp16 zero point", "int4，每组 64 个，fp16 缩放因子与 fp16 零点", 4, 64, 16, 16),
    ("int4, group 32, fp16 scale, symmetric", "int4，每组 32 个，fp16 缩放因子，对称", 4, 32, 16, 0),
    ("MXFP4: 4-bit floats, blocks of 32 sharing an 8-bit scale", "MX 格式的 4 位浮点：每 32 个共享一个 8 位缩放因子",
     4, 32, 8, 0),
    ("NF4 (QLoRA), blocks of 64 with an fp32 absmax scale", "NF4：每 64 个一个 fp32 最大绝对值缩放因子",
     4, 64, 32, 0),
    ("int3, group 128, fp16 scale and 3-bit zero point", "int3，每组 128 个，fp16 缩放因子加 3 位零点", 3, 128, 16, 3),
    ("int8, group 128, fp16 scale, symmetric", "int8，每组 128 个，fp16 缩放因子，对称", 8, 128, 16, 0),
)
QUANT_CONV_EN = ("Group quantisation: every group of g weights shares one scale (and, if asymmetric, one zero "
                 "point), so the stored bits per weight = bits + (scale bits + zero-point bits) ÷ g. Weight-only: "
                 "the kernels dequantise to 16 bits, so any GPU runs it.")
QUANT_CONV_ZH = ("分组量化：每 g 个权重共享一个缩放因子（非对称时还有一个零点），所以每个权重实际存储的位数 = 位宽 + "
                 "(缩放因子位数 + 零点位数) ÷ g。仅量化权重：kernel 会反量化回 16 位计算，任何 GPU 都能跑。")
# A group's overhead is 1.5 % (int8, group 128: 8.125 vs 8 bits) to 12.5 % of the weight (int4, group 32): graded
# within 1 %, "close" only up to 1.5 %, so an answer that leaves the scales out (4 bits for 4.125) is wrong, and the
# grader names it ("forgot the group scale"); tests/unit/test_teaching.py checks every scheme.
QUANT_TOLERANCE = 0.01
QUANT_CLOSE = 0.015
QUANT_SOURCE = "frantar2022, lin2023"


def _scheme(rng):
    name_en, name_zh, bits, g, sb, zb = rng.choice(QUANT_SCHEMES)
    return name_en, name_zh, bits, g, sb, zb, bits + (sb + zb) / g


def _scheme_givens(name_en, name_zh, bits, g, sb, zb):
    return (given("scheme", "Scheme", "量化方案", name_en, value_zh=name_zh),
            given("bits", "Bits per weight b", "每个权重的位宽 b", bits, "bits", "bit"),
            given("group_size", "Group size g", "每组权重数 g", g, counts=NotCounted.SIZE),
            given("scale_bits", "Scale bits per group", "每组缩放因子的位数", sb, "bits", "bit"),
            given("zero_bits", "Zero-point bits per group", "每组零点的位数", zb, "bits", "bit")
            if zb else given("zero_point", "Zero point", "零点", "none (symmetric)", value_zh="无（对称）"))


# More published schemes, drawn last in serving.quant_bits (70 % of the seeds) so the others keep their problem: the
# GPTQ / AWQ group sizes 32-128 at 2-4 bits, HQQ's fp16 zero points, the OCP MX block formats (v1.0: MXFP6, MXFP8),
# NVIDIA's NVFP4, llama.cpp's legacy block formats (Q4_1, Q5_0, Q5_1, Q8_0: blocks of 32 with fp16 scales and
# minimums) and QLoRA's double-quantised NF4 (each block's 8-bit absmax scaled by one fp32 per 256 blocks: 8 + 32/256
# = 8.125 bits per block, Dettmers et al. 2023 §3).
MORE_QUANT_SCHEMES = (
    ("int4, group 32, fp16 scale and 4-bit zero point (GPTQ / AWQ packing)",
     "int4，每组 32 个，fp16 缩放因子加 4 位零点（GPTQ / AWQ 的打包方式）", 4, 32, 16, 4),
    ("int4, group 64, fp16 scale and 4-bit zero point (GPTQ / AWQ packing)",
     "int4，每组 64 个，fp16 缩放因子加 4 位零点（GPTQ / AWQ 的打包方式）", 4, 64, 16, 4),
    ("int3, group 64, fp16 scale and 3-bit zero point", "int3，每组 64 个，fp16 缩放因子加 3 位零点", 3, 64, 16, 3),
    ("int3, group 32, fp16 scale and 3-bit zero point", "int3，每组 32 个，fp16 缩放因子加 3 位零点", 3, 32, 16, 3),
    ("int3, group 64, fp16 scale and fp16 zero point (HQQ)", "int3，每组 64 个，fp16 缩放因子与 fp16 零点（HQQ）",
     3, 64, 16, 16),
    ("int2, group 64, fp16 scale and 2-bit zero point (GPTQ 2-bit)", "int2，每组 64 个，fp16 缩放因子加 2 位零点（GPTQ 2 位）",
     2, 64, 16, 2),
    ("int2, group 128, fp16 scale and 2-bit zero point", "int2，每组 128 个，fp16 缩放因子加 2 位零点", 2, 128, 16, 2),
    ("NVFP4: 4-bit floats, blocks of 16 sharing an 8-bit E4M3 scale (one fp32 scale per tensor, negligible)",
     "NVFP4：4 位浮点，每 16 个共享一个 8 位 E4M3 缩放因子（另有每个张量一个 fp32 缩放因子，可忽略）", 4, 16, 8, 0),
    ("MXFP6: 6-bit floats, blocks of 32 sharing an 8-bit scale", "MXFP6：6 位浮点，每 32 个共享一个 8 位缩放因子",
     6, 32, 8, 0),
    ("MXFP8: 8-bit floats, blocks of 32 sharing an 8-bit scale", "MXFP8：8 位浮点，每 32 个共享一个 8 位缩放因子",
     8, 32, 8, 0),
    ("llama.cpp Q4_1: 4-bit, blocks of 32 with an fp16 scale and an fp16 minimum",
     "llama.cpp 的 Q4_1：4 位，每 32 个一块，带 fp16 缩放因子和 fp16 最小值", 4, 32, 16, 16),
    ("llama.cpp Q5_0: 5-bit, blocks of 32 with an fp16 scale", "llama.cpp 的 Q5_0：5 位，每 32 个一块，带 fp16 缩放因子",
     5, 32, 16, 0),
    ("llama.cpp Q5_1: 5-bit, blocks of 32 with an fp16 scale and an fp16 minimum",
     "llama.cpp 的 Q5_1：5 位，每 32 个一块，带 fp16 缩放因子和 fp16 最小值", 5, 32, 16, 16),
    ("llama.cpp Q8_0: 8-bit, blocks of 32 with an fp16 scale", "llama.cpp 的 Q8_0：8 位，每 32 个一块，带 fp16 缩放因子",
     8, 32, 16, 0),
    ("NF4 with double quantisation (QLoRA): blocks of 64, each absmax stored in 8 bits and scaled by one fp32 per 256 "
     "blocks, 8 + 32/256 = 8.125 bits per block", "双重量化的 NF4（QLoRA）：每 64 个一块，每块的最大绝对值以 8 位存储，"
     "每 256 块再共享一个 fp32 缩放因子，即每块 8 + 32/256 = 8.125 位", 4, 64, 8.125, 0),
)
MORE_SCHEMES_SHARE = 0.7


@template("serving.quant_bits", topic="serving", title="Bits per weight of a group-quantisation scheme",
          title_zh="分组量化方案的每权重位数", difficulty=1, target_seconds=60, source=QUANT_SOURCE)
def quant_bits(rng):
    name_en, name_zh, bits, g, sb, zb, _ = _scheme(rng)
    m = rng.choice(models.DENSE + models.MOE_MODELS[1:3])
    if rng.random() < MORE_SCHEMES_SHARE:  # drawn last: another published scheme
        name_en, name_zh, bits, g, sb, zb = rng.choice(MORE_QUANT_SCHEMES)
    return Spec(
        givens=(given("model", "Model", "模型", m.name),) + _scheme_givens(name_en, name_zh, bits, g, sb, zb),
        asks=(Ask(formula="quant_bits_per_weight", unit="bit", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                  inputs={"bits": bits, "group_size": g, "scale_bits": sb, "zero_bits": zb},
                  prompt_en=f"{m.name}'s weights are quantised with this scheme. How many bits does each weight take "
                            "in memory, scales and zero points included?",
                  prompt_zh=f"{m.name} 的权重用这个方案量化。算上缩放因子和零点，每个权重在显存里占多少位（bit）？"),),
        conventions_en=QUANT_CONV_EN, conventions_zh=QUANT_CONV_ZH,
        world=World(model=m),
    )


def _quant_model(rng) -> Model:
    return rng.choice(models.DENSE + models.MOE_MODELS[1:3])


@template("serving.quant_memory", topic="serving", title="Memory of a quantised model",
          title_zh="量化后模型的显存", difficulty=2, target_seconds=90, source=QUANT_SOURCE)
def quant_memory(rng):
    name_en, name_zh, bits, g, sb, zb, bpw = _scheme(rng)
    m = _quant_model(rng)
    return Spec(
        givens=(given("model", "Model", "模型", m.name), params_given(m))
        + _scheme_givens(name_en, name_zh, bits, g, sb, zb),
        asks=(Ask(formula="quant_weights_bytes", unit="GB", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                  inputs={"phi": nominal_phi(m), "bits_per_weight": bpw}, extras={"bits": bits},
                  explanation=(f"bits per weight = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  explanation_zh=(f"每权重位数 = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  prompt_en=f"How much memory do {m.name}'s weights take with this scheme, scales and zero points "
                            "included, in GB?",
                  prompt_zh=f"用这个方案量化后，{m.name} 的权重（含缩放因子与零点）占多少显存（GB）？"),),
        conventions_en=f"{QUANT_CONV_EN} GB = 1e9 B, 8 bits = 1 B.", conventions_zh=f"{QUANT_CONV_ZH}GB = 1e9 B，8 bit = 1 B。",
        world=World(model=m),
    )


def _quant_decode_setup(rng):
    """A dense model decoded at a batch and context whose KV read is a real share of the step."""
    while True:
        m = rng.choice(models.DENSE)
        batch, seq = rng.choice((1, 4, 8, 16, 32)), draw_seq(rng, m)
        kv = round_sig(evaluate("kv_cache_bytes", batch=batch, seq=seq, layers=m.layers, n_kv_heads=m.n_kv_heads,
                             d_head=m.d_head, bytes_per_elem=2), 3)
        if 0.02 < kv / weight_bytes(m, "bf16") < 3:
            return m, batch, seq, kv


@template("serving.quant_speedup", topic="serving", title="Decode speed-up from quantising the weights",
          title_zh="量化权重带来的 decode 加速", difficulty=2, target_seconds=120, source=f"{QUANT_SOURCE}, pope2022")
def quant_speedup(rng):
    name_en, name_zh, bits, g, sb, zb, bpw = _scheme(rng)
    m, batch, seq, kv = _quant_decode_setup(rng)
    return Spec(
        givens=(given("model", "Model", "模型", m.name),
                given("weight_bytes", "Weights in bf16 W", "bf16 权重 W", weight_bytes(m, "bf16"), "bytes", "GB"),
                given("bits_before", "Bits per weight before (bf16)", "量化前每权重位数（bf16）", 16, "bits", "bit"))
        + _scheme_givens(name_en, name_zh, bits, g, sb, zb)
        + (given("kv_bytes", f"KV cache read per step (batch {batch} × {seq:,} tokens, bf16)",
                 f"每步读取的 KV Cache（batch {batch} × {seq:,} token，bf16）", kv, "bytes", "GB"),),
        asks=(Ask(formula="quant_decode_speedup", unit="x", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                  inputs={"bits_before": 16, "bits_after": bpw, "weight_bytes": weight_bytes(m, "bf16"), "kv_bytes": kv},
                  extras={"bits": bits},
                  explanation=(f"bits per weight after = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  explanation_zh=(f"量化后每权重位数 = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  prompt_en=f"{m.name} decodes {batch} sequence{'s' if batch > 1 else ''} of {seq:,} tokens with bf16 "
                            "weights; you quantise only the weights with this scheme (the KV cache stays bf16). "
                            "Decode is memory-bound: by what factor does the step get faster (e.g. 2.5x)?",
                  prompt_zh=f"{m.name} 用 bf16 权重 decode {batch} 条、每条 {seq:,} token 的序列；你只用这个方案量化权重"
                            "（KV Cache 仍为 bf16）。decode 为访存受限：每一步快了多少倍（例如 2.5x）？"),),
        conventions_en=f"{QUANT_CONV_EN} {DECODE_CONV_EN} GB = 1e9 B, 8 bits = 1 B.",
        conventions_zh=f"{QUANT_CONV_ZH}{DECODE_CONV_ZH}GB = 1e9 B，8 bit = 1 B。",
        world=World(model=m, seq=seq, batch=batch),
    )


@template("serving.chain_quantise", topic="serving",
          title="Chain: quantise: bits → memory → fits → speed-up",
          title_zh="追问链：每权重位数 → 量化后显存 → 单卡放得下？ → decode 加速", difficulty=2, target_seconds=420,
          source=f"{QUANT_SOURCE}, pope2022")
def chain_quantise(rng):
    while True:
        name_en, name_zh, bits, g, sb, zb, bpw = _scheme(rng)
        m, batch, seq, kv = _quant_decode_setup(rng)
        gpu = rng.choice(hardware.with_dtype("bf16"))  # the KV cache stays bf16
        wq = evaluate("quant_weights_bytes", phi=nominal_phi(m), bits_per_weight=bpw)
        if abs(wq / gpu.memory - 1) > 0.08 and bits <= 4:
            break
    fits = wq <= gpu.memory
    w16 = weight_bytes(m, "bf16")
    cmp_en = f"  {gb(wq)} {'≤' if fits else '>'} {gb(gpu.memory)} of one {gpu.name}: {'fits' if fits else 'does not fit'}"
    cmp_zh = f"  {gb(wq)} {'≤' if fits else '>'} 一张 {gpu.name} 的 {gb(gpu.memory)}：{'放得下' if fits else '放不下'}"
    bf16_en = f"  (in bf16 the same weights take 2 B × {fmt_number(nominal_phi(m))} = {gb(w16)})"
    bf16_zh = f"  （同样的权重用 bf16 要 2 B × {fmt_number(nominal_phi(m))} = {gb(w16)}）"
    if fits:
        fit_take = (f"at {fmt_number(bpw)} bits {m.name} drops from {gb(w16)} to {gb(wq)} and fits one {gpu.name}, with "
                    f"{gb(gpu.memory - wq)} left for the KV cache and activations: check that room before promising a "
                    "batch.",
                    f"量化到 {fmt_number(bpw)} 位后，{m.name} 的权重从 {gb(w16)} 降到 {gb(wq)}，一张 {gpu.name} 放得下，"
                    f"还剩 {gb(gpu.memory - wq)} 给 KV Cache 和激活：承诺 batch 之前先算这部分余量。")
    else:
        fit_take = (f"even at {fmt_number(bpw)} bits the weights need {gb(wq)}, more than one {gpu.name}'s "
                    f"{gb(gpu.memory)}: split them over GPUs (tensor parallelism) or go to fewer bits.",
                    f"即使量化到 {fmt_number(bpw)} 位，权重也要 {gb(wq)}，超过一张 {gpu.name} 的 {gb(gpu.memory)}："
                    "要么用张量并行切到多张 GPU 上，要么用更少的位数。")
    return Spec(
        scenario_en=f"You want to serve {m.name} on {an(gpu.name)} with {name_en.split(',')[0]} weights.",
        scenario_zh=f"你想在 {gpu.name} 上用 {name_zh.split('，')[0]} 权重部署 {m.name}。",
        givens=(given("model", "Model", "模型", m.name), params_given(m), given("gpu", "GPU", "GPU", gpu.name),
                kit.chip(gpu, "memory", label=("GPU memory", "GPU 显存")))
        + _scheme_givens(name_en, name_zh, bits, g, sb, zb)
        + (given("kv_bytes", f"KV cache read per step (batch {batch} × {seq:,} tokens, bf16)",
                 f"每步读取的 KV Cache（batch {batch} × {seq:,} token，bf16）", kv, "bytes", "GB"),),
        asks=(
            Ask(formula="quant_bits_per_weight", unit="bit", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                inputs={"bits": bits, "group_size": g, "scale_bits": sb, "zero_bits": zb},
                prompt_en="How many bits does each weight take, scales and zero points included?",
                prompt_zh="算上缩放因子和零点，每个权重占多少位（bit）？"),
            Ask(formula="quant_weights_bytes", unit="GB", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                inputs={"phi": nominal_phi(m), "bits_per_weight": Ref(0)}, extras={"bits": bits},
                prompt_en="How much memory do the quantised weights take, in GB?",
                prompt_zh="量化后的权重占多少显存（GB）？"),
            Ask(prompt_en=f"Do the quantised weights alone fit in one {gpu.name}? Answer yes or no.",
                prompt_zh=f"只看量化后的权重，一张 {gpu.name} 放得下吗？请回答「能」或「不能」。",
                choices=YES_NO, answer="yes" if fits else "no", explanation=(cmp_en, bf16_en),
                explanation_zh=(cmp_zh, bf16_zh), takeaway=fit_take[0], takeaway_zh=fit_take[1],
                card_formulas=("quant_weights_bytes",)),
            Ask(formula="quant_decode_speedup", unit="x", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                inputs={"bits_before": 16, "bits_after": Ref(0), "weight_bytes": w16, "kv_bytes": kv},
                extras={"bits": bits},
                prompt_en="Against bf16 weights (16 bits), by what factor does a memory-bound decode step get faster "
                          "at this batch and context (the KV cache stays bf16; e.g. 2.5x)?",
                prompt_zh="和 bf16 权重（16 位）相比，在这个 batch 和上下文下，访存受限的 decode 步快了多少倍"
                          "（KV Cache 仍为 bf16；例如 2.5x）？"),
        ),
        conventions_en=f"{QUANT_CONV_EN} {DECODE_CONV_EN} GB = 1e9 B, 8 bits = 1 B.",
        conventions_zh=f"{QUANT_CONV_ZH}{DECODE_CONV_ZH}GB = 1e9 B，8 bit = 1 B。",
        world=World(model=m, gpu=gpu, kv="bf16", seq=seq, batch=batch, holds=("weights",), fit_is_asked=True),
    )
