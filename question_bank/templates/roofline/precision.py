"""Roofline templates for precisions and export-limited chips (H20, FP8 against bf16).

Roofline templates for precisions and export-limited chips: the H20's low compute against its high
bandwidth, and FP8 at its own peak against bf16.

The chips come from the catalogue's pools (``pools`` in question_bank/data/*.toml): ``export`` (H20).
"""

from __future__ import annotations

from engine.choices import Choice
from engine.units import fmt_number

from ... import hardware
from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH, an, bw_given, peak_given


@template("roofline.export_ridge", topic="roofline", title="H20: low compute, high bandwidth",
          title_zh="H20：算力低、带宽高", difficulty=2, target_seconds=90, source="R§3.2, williams2009")
def export_ridge(rng):
    gpu = rng.choice([g for g in hardware.pool("export") if g.peak("bf16") < hardware.get("h100_sxm").peak("bf16")])
    ref = hardware.get("h100_sxm")
    dtype = rng.choice(("bf16", "fp8"))
    per_byte = 2 / (2 if dtype == "bf16" else 1)  # 2·B FLOPs per weight, over its bytes
    ratio = ref.peak(dtype) / gpu.peak(dtype)
    ridge, ridge_ref = gpu.peak(dtype) / gpu.bandwidth, ref.peak(dtype) / ref.bandwidth
    while True:  # around the H20's ridge (37 FLOP/B bf16, 74 fp8), clear of it: quoting the wrong roof is wrong
        batch = rng.randint(1, 96)
        intensity = batch * per_byte
        if abs(intensity / ridge - 1) > 0.15:
            break
    bound_en = "memory-bound (below the ridge)" if intensity < ridge else "compute-bound (above the ridge)"
    bound_zh = "访存受限（低于拐点）" if intensity < ridge else "算力受限（高于拐点）"
    w_bytes = "2 B" if dtype == "bf16" else "1 B"
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name), peak_given(gpu.peak(dtype), dtype), bw_given(gpu.bandwidth),
                given("batch", "Decode batch B", "decode batch 大小 B", batch)),
        asks=(Ask(formula="attainable_flops", unit="TFLOPS",
                  inputs={"intensity": intensity, "peak_flops": gpu.peak(dtype), "bandwidth": gpu.bandwidth},
                  explanation=(f"A decode GEMM streams each {dtype} weight ({w_bytes}) once and does 2·B FLOPs with it: "
                               f"I = 2 × {batch} / {w_bytes[:-2]} = {intensity:g} FLOP/B",
                               f"ridge of the {gpu.name} = {gpu.peak(dtype) / 1e12:,.0f} TFLOPS ÷ "
                               f"{gpu.bandwidth / 1e12:g} TB/s = {ridge:,.0f} FLOP/B, so the GEMM is {bound_en}; "
                               f"the H100 SXM's ridge is {ridge_ref:,.0f} FLOP/B"),
                  explanation_zh=(f"decode 的 GEMM 把每个 {dtype} 权重（{w_bytes}）读一次，做 2·B 次 FLOP："
                                  f"I = 2 × {batch} / {w_bytes[:-2]} = {intensity:g} FLOP/B",
                                  f"{gpu.name} 的拐点 = {gpu.peak(dtype) / 1e12:,.0f} TFLOPS ÷ {gpu.bandwidth / 1e12:g} TB/s"
                                  f" = {ridge:,.0f} FLOP/B，所以该 GEMM {bound_zh}；H100 SXM 的拐点是 "
                                  f"{ridge_ref:,.0f} FLOP/B"),
                  takeaway=(f"The H20 has about 1/{ratio:.1f} of the H100's {dtype} compute but more bandwidth: its "
                            "ridge is so low that small-batch decode stays memory-bound and runs as fast as on an "
                            f"H100, while prefill, large batches and training are compute-bound and about {ratio:.1f}× "
                            "slower."),
                  takeaway_zh=(f"H20 的 {dtype} 算力约为 H100 的 1/{ratio:.1f}，带宽却更高：拐点很低，小 batch 的 decode "
                               "仍是访存受限，速度与 H100 相当；prefill、大 batch 和训练是算力受限，约慢 "
                               f"{ratio:.1f} 倍。"),
                  prompt_en=f"The H20, the export version of Hopper, keeps HBM3 bandwidth but has far less {dtype} "
                            f"compute. A decode step at batch {batch} multiplies the {dtype} weights by {batch} "
                            "token vectors. What FLOP/s can that weight-streaming GEMM reach on the H20 (the roofline)?",
                  prompt_zh=f"H20 是 Hopper 的出口版本，保留了 HBM3 带宽，但 {dtype} 算力低得多。batch 为 {batch} 的一步 "
                            f"decode 用 {dtype} 权重乘 {batch} 个 token 向量。这个流式读取权重的 GEMM 在 H20 上最多能达到"
                            "多少 FLOP/s（按 Roofline 模型）？"),),
        conventions_en=CONV_EN + " Activations and the KV cache are ignored: the weights dominate the bytes.",
        conventions_zh=CONV_ZH + "忽略激活和 KV Cache：字节数以权重为主。",
        world=(World(gpu=gpu, precision=dtype), World(gpu=ref, precision=dtype)),
    )


# --------------------------------------------------------------------------- #
# FP8 at its own dense peak: the ridge doubles, the decode batch that turns compute-bound does not

SAME = Choice("about the same", ("same", "the same", "about the same", "equal", "unchanged", "no change", "相同",
                                 "一样", "不变", "基本相同", "差不多"), "基本相同")
LARGER = Choice("larger", ("larger", "bigger", "higher", "more", "increases", "更大", "变大", "增大"), "更大")
SMALLER = Choice("smaller", ("smaller", "lower", "less", "decreases", "更小", "变小", "减小"), "更小")


@template("roofline.fp8_chain", topic="roofline",
          title="FP8 at its own peak: ridge point → critical decode batch → against bf16 → decode FLOP/s",
          title_zh="FP8 按自身峰值算：拐点 → decode 临界 batch → 与 bf16 对比 → decode 算力", difficulty=3,
          target_seconds=300,
          source="R§3.2, R§4.1, williams2009, pope2022")
def fp8_chain(rng):
    gpu = hardware.draw(rng, hardware.with_dtype("fp8"), accept=lambda g: g.supports("fp8") and g.supports("bf16"))
    f8, f16, bw = gpu.peak("fp8"), gpu.peak("bf16"), gpu.bandwidth
    ridge8 = f8 / bw
    crit8, crit16 = ridge8 * 1 / 2, f16 / bw * 2 / 2
    change = crit8 / crit16
    answer = SAME.key if abs(change - 1) <= 0.05 else LARGER.key if change > 1 else SMALLER.key
    verdict_en = {SAME.key: "about the same", LARGER.key: "larger", SMALLER.key: "smaller"}[answer]
    verdict_zh = {SAME.key: "基本相同", LARGER.key: "更大", SMALLER.key: "更小"}[answer]
    batch = rng.choice([b for b in (4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
                        if abs(b / crit8 - 1) > 0.15])
    bound_en = ("below", "memory-bound") if batch < crit8 else ("above", "compute-bound")
    bound_zh = ("低于", "访存受限") if batch < crit8 else ("高于", "算力受限")
    return Spec(
        scenario_en=f"A model is served on {an(gpu.name)} with fp8 weights multiplied on the fp8 tensor cores "
                    "(activations quantised to fp8 too), instead of bf16 weights on the bf16 tensor cores.",
        scenario_zh=f"一个模型部署在 {gpu.name} 上，权重为 fp8、在 fp8 Tensor Core 上做乘法（激活也量化为 fp8），"
                    "而不是 bf16 权重在 bf16 Tensor Core 上计算。",
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                given("peak_fp8", "Peak dense fp8 FLOP/s", "fp8 稠密峰值算力", f8, "flop_rate", "TFLOPS"),
                given("peak_bf16", "Peak dense bf16 FLOP/s", "bf16 稠密峰值算力", f16, "flop_rate", "TFLOPS"),
                bw_given(bw)),
        asks=(Ask(formula="ridge_point", inputs={"peak_flops": f8, "bandwidth": bw}, unit="FLOP/B",
                  extras={"peak_flops_16": f16},
                  takeaway=f"fp8 doubles the peak but not the bandwidth: the ridge is twice the bf16 one "
                           f"({fmt_number(f16 / bw)} FLOP/B), so a kernel must do twice the work per byte to be "
                           "compute-bound in fp8.",
                  takeaway_zh=f"fp8 让峰值翻倍、带宽不变：拐点是 bf16 的两倍（bf16 为 {fmt_number(f16 / bw)} FLOP/B），"
                              "算子每字节要做两倍的计算才能在 fp8 下算力受限。",
                  prompt_en=f"What is the ridge point of the {gpu.name} for fp8 kernels?",
                  prompt_zh=f"{gpu.name} 上 fp8 算子的拐点算术强度是多少？"),
              Ask(formula="critical_batch", inputs={"peak_flops": f8, "bandwidth": bw, "bytes_per_elem": 1}, unit="",
                  takeaway="with fp8 weights at the fp8 peak the batch is ridge × 1 B / 2: the doubled ridge meets "
                           "the halved bytes.",
                  takeaway_zh="fp8 权重按 fp8 峰值计算时，临界 batch = 拐点 × 1 B / 2：翻倍的拐点遇上减半的字节数。",
                  prompt_en="At what decode batch do the fp8 weight-streaming GEMMs become compute-bound?",
                  prompt_zh="decode batch 达到多少时，流式读取 fp8 权重的 GEMM 转为算力受限？"),
              Ask(choices=(SAME, LARGER, SMALLER), answer=answer,
                  prompt_en="Compared with bf16 weights on the bf16 tensor cores, is that critical batch larger, "
                            "smaller or about the same?",
                  prompt_zh="与 bf16 权重在 bf16 Tensor Core 上计算相比，这个临界 batch 更大、更小还是基本相同？",
                  explanation=(f"bf16: B* = {fmt_number(f16 / 1e12)} TFLOPS ÷ {fmt_number(bw / 1e12)} TB/s × 2 B / 2 = "
                               f"{fmt_number(round(crit16))}",
                               f"fp8: B* = {fmt_number(ridge8)} FLOP/B × 1 B / 2 = {fmt_number(round(crit8))} (step 2)",
                               f"fp8's peak is {fmt_number(round(f8 / f16, 2))}× bf16's while each weight is half the "
                               f"bytes: the ratio is {fmt_number(round(change, 3))}, {verdict_en}"),
                  explanation_zh=(f"bf16：B* = {fmt_number(f16 / 1e12)} TFLOPS ÷ {fmt_number(bw / 1e12)} TB/s × 2 B / 2 = "
                                  f"{fmt_number(round(crit16))}",
                                  f"fp8：B* = {fmt_number(ridge8)} FLOP/B × 1 B / 2 = {fmt_number(round(crit8))}（第 2 步）",
                                  f"fp8 的峰值是 bf16 的 {fmt_number(round(f8 / f16, 2))} 倍，每个权重的字节数却减半："
                                  f"两者之比为 {fmt_number(round(change, 3))}，{verdict_zh}"),
                  takeaway=("fp8 doubles both the peak and the FLOPs each byte of weight feeds, so the ridge doubles "
                            "but the decode batch that saturates the tensor cores stays put: fp8 makes memory-bound "
                            "decode up to 2× faster (half the bytes) and compute-bound prefill up to 2× faster (twice "
                            "the peak), without changing where one turns into the other.") if answer == SAME.key else
                           (f"on the {gpu.name} fp8's peak is not twice bf16's, so the critical batch moves by fp8 "
                            "peak ÷ (2 × bf16 peak): read the precision's own dense peak from the datasheet."),
                  takeaway_zh=("fp8 让峰值和每字节权重支撑的 FLOPs 都翻倍，所以拐点翻倍，但打满 Tensor Core 所需的 decode "
                               "batch 不变：fp8 让访存受限的 decode 最多快 2 倍（字节减半），让算力受限的 prefill 最多快 2 倍"
                               "（峰值翻倍），而两者的分界点不变。") if answer == SAME.key else
                              (f"{gpu.name} 的 fp8 峰值不是 bf16 的两倍，临界 batch 按 fp8 峰值 ÷（2 × bf16 峰值）变化："
                               "要从数据手册读取该精度自己的稠密峰值。"),
                  card_formulas=("ridge_point", "critical_batch")),
              Ask(formula="attainable_flops", unit="TFLOPS",
                  inputs={"intensity": 2.0 * batch, "peak_flops": f8, "bandwidth": bw},
                  explanation=(f"an fp8 decode GEMM at batch {batch} does 2 × {batch} FLOPs per 1-byte weight: "
                               f"I = {2 * batch} FLOP/B, {bound_en[0]} the fp8 ridge of {fmt_number(ridge8)} FLOP/B "
                               f"(batch {batch} {bound_en[0]} B* = {fmt_number(round(crit8))}): {bound_en[1]}",),
                  explanation_zh=(f"batch 为 {batch} 的 fp8 decode GEMM 对每个 1 字节权重做 2 × {batch} 次 FLOP："
                                  f"I = {2 * batch} FLOP/B，{bound_zh[0]} fp8 拐点 {fmt_number(ridge8)} FLOP/B"
                                  f"（batch {batch} {bound_zh[0]} B* = {fmt_number(round(crit8))}）：{bound_zh[1]}",),
                  takeaway="below the critical batch fp8 decode runs at I × BW, twice bf16's FLOP/s at the same batch "
                           "(each byte is a whole weight); above it, at the fp8 peak, twice bf16's.",
                  takeaway_zh="低于临界 batch 时，fp8 decode 的算力为 I × BW，是同 batch 下 bf16 的两倍（每个字节就是一个"
                              "完整权重）；高于它时达到 fp8 峰值，也是 bf16 的两倍。",
                  prompt_en=f"At a decode batch of {batch}, what FLOP/s can those fp8 weight-streaming GEMMs reach "
                            "(the roofline at the fp8 peak)?",
                  prompt_zh=f"decode batch 为 {batch} 时，这些流式读取 fp8 权重的 GEMM 最多能达到多少 FLOP/s"
                            "（按 fp8 峰值下的 Roofline 模型）？")),
        conventions_en=CONV_EN + " A decode GEMM reads each weight once per step and does 2 FLOPs with it per "
                                 "sequence; activations and the KV cache are ignored.",
        conventions_zh=CONV_ZH + "decode 的 GEMM 每步把每个权重读一次，对每条序列用它做 2 次 FLOP；忽略激活和 KV Cache。",
        world=(World(gpu=gpu, precision="fp8"), World(gpu=gpu, precision="bf16")),
    )
