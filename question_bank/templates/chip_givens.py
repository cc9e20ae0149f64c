"""What the topic modules share about a chip and the roofline: conventions, givens and asks.

What the topic modules share about a chip and the roofline: the conventions sentence, a GPU's givens, the
ridge, the memory-/compute-bound and optimisation-direction asks, and the English article ``an``.

The optimisation directions follow C§5.2 ("低于拐点做融合，高于拐点打满 Tensor Core").
"""

from __future__ import annotations

import re

from engine import formulas
from engine.choices import Choice
from engine.formulas import bound_solution, classify_bound
from engine.units import fmt_number

from .. import kit
from ..hardware import GPU
from ..spec import Ask, Given, given

# --------------------------------------------------------------------------- #
# Shared conventions, givens and choices

CONV_EN = ("Conventions: GB = 1e9 B, TB/s = 1e12 B/s, TFLOPS = 1e12 FLOP/s; peaks are dense (no 2:4 sparsity); "
           "fp32 = 4 B, bf16/fp16 = 2 B, fp8/int8 = 1 B, int4 = 0.5 B per element.")
CONV_ZH = ("约定：GB = 1e9 B，TB/s = 1e12 B/s，TFLOPS = 1e12 FLOP/s；峰值为稠密算力（不含 2:4 稀疏）；"
           "每个元素 fp32 = 4 B，bf16/fp16 = 2 B，fp8/int8 = 1 B，int4 = 0.5 B。")

BOUND_ZH = {"memory-bound": "访存受限", "compute-bound": "算力受限"}  # the English term follows in the same brackets

REDUCE_TRAFFIC = Choice("reduce memory traffic", ("reduce traffic", "traffic", "fewer bytes", "bytes", "fusion",
                                                   "fuse", "kernel fusion", "减少访存", "算子融合", "融合"),
                        "减少访存")
USE_COMPUTE = Choice("improve compute efficiency", ("compute efficiency", "compute", "tiling", "tensor cores",
                                                    "tensor-core tiling", "提升计算效率", "打满 tensor core",
                                                    "分块"), "提升计算效率")
DIRECTION_CHOICES = (REDUCE_TRAFFIC, USE_COMPUTE)
DIRECTION_FOR = {"memory-bound": REDUCE_TRAFFIC.key, "compute-bound": USE_COMPUTE.key}
DIRECTION_PROMPT_EN = ("Where should the optimisation effort go: 'reduce memory traffic' (fusion, quantisation, "
                       "bigger batch) or 'improve compute efficiency' (tensor-core tiling, keeping the units busy)?")
DIRECTION_PROMPT_ZH = ("优化重点应放在哪里：「减少访存」（算子融合、量化、增大 batch）"
                       "还是「提升计算效率」（Tensor Core 分块、打满计算单元）？")


def an(name: str, cap: bool = False) -> str:
    """``a V100`` / ``an H100`` / ``an fp8`` / ``a Falcon`` / ``an 8-stage`` / ``a 16,384``: by how the start
    is spoken.  A number by its leading group of thousands: eight…, eighty…, eight hundred…, eleven, eighteen."""
    token = name.split()[0].split("-")[0]
    if token[:1].isdigit():
        digits = re.match(r"[\d,]*", token)
        assert digits is not None  # "*" matches an empty start too
        lead = int(digits.group().replace(",", ""))
        while lead >= 1000:
            lead //= 1000
        vowel = str(lead)[0] == "8" or lead in (11, 18)
    else:
        word = not token[:2].isupper()  # "Falcon", "residual": read as a word; "H100", "fp8": letter by letter
        word = word and not any(ch.isdigit() for ch in token)
        vowel = name[:1].upper() in ("AEIOU" if word else "AEFHILMNORSX")
    art = "an" if vowel else "a"
    return f"{art.capitalize() if cap else art} {name}"


def peak_given(value: float, dtype: str) -> Given:
    """A peak that is no catalogue chip's figure (the seed's quoted table, a hypothetical chip): kit.chip_given
    gives a chip's own, with its origin."""
    return kit.shown_as(f"peak:{dtype}", value)


def bw_given(value: float) -> Given:
    return kit.shown_as("bandwidth", value)


def dtype_given(dtype: str) -> Given:
    return given("dtype", "Precision", "精度", dtype)


def gpu_given(gpu: GPU) -> Given:
    return given("gpu", "GPU", "GPU", gpu.name)


def card_givens(gpu: GPU, dtype: str) -> tuple[Given, ...]:
    return (gpu_given(gpu), dtype_given(dtype), kit.chip(gpu, "peak", dtype=dtype),
            kit.chip(gpu, "bandwidth"))


def ridge(peak: float, bandwidth: float) -> float:
    return formulas.get("ridge_point").evaluate(peak_flops=peak, bandwidth=bandwidth)


def gemm_i(m: int, n: int, k: int, bpe: float) -> float:
    return formulas.get("gemm_intensity").evaluate(m=m, n=n, k=k, bytes_per_elem=bpe)


def bound_lines_zh(intensity: float, ridge_value: float, peak: float | None = None,
                   bandwidth: float | None = None) -> list[str]:
    verdict = classify_bound(intensity, ridge_value)
    rel = "<" if intensity < ridge_value else "≥"
    limit = "显存带宽" if verdict == "memory-bound" else "峰值算力"
    return [*([formulas.ridge_line(peak, bandwidth)] if peak and bandwidth else []),
            "判定：I < I* 为访存受限，否则为算力受限",
            f"  I = {fmt_number(intensity)} FLOP/B {rel} I* = {fmt_number(ridge_value)} FLOP/B",
            f"  = {BOUND_ZH[verdict]}（{verdict}，受限于{limit}）"]
DIRECTION_TAKEAWAY = ("Find the bottleneck before optimising: below the ridge cut the bytes moved, above it keep the "
                      "tensor cores busy.",
                      "先定位瓶颈再优化：低于拐点就减少访存，高于拐点就打满 Tensor Core。")


def direction_ask(intensity: float, ridge_value: float, what_en: str, what_zh: str, *, lead: tuple[str, ...] = (),
                  peak: float | None = None, bandwidth: float | None = None) -> Ask:
    verdict = classify_bound(intensity, ridge_value)
    why_en = ("below the ridge: the op waits on HBM, so cut the bytes it moves"
              if verdict == "memory-bound" else
              "above the ridge: the op is limited by the math units, so keep the tensor cores busy")
    why_zh = ("低于拐点：算子在等显存，应减少搬运的字节数" if verdict == "memory-bound"
              else "高于拐点：算子受限于计算单元，应打满 Tensor Core")
    return Ask(prompt_en=f"{what_en} {DIRECTION_PROMPT_EN}", prompt_zh=f"{what_zh}{DIRECTION_PROMPT_ZH}",
               choices=DIRECTION_CHOICES, answer=DIRECTION_FOR[verdict],
               explanation=lead + tuple(bound_solution(intensity, ridge_value, peak, bandwidth)) + (f"  {why_en}",),
               explanation_zh=lead + tuple(bound_lines_zh(intensity, ridge_value, peak, bandwidth)) + (f"  {why_zh}",),
               takeaway=DIRECTION_TAKEAWAY[0], takeaway_zh=DIRECTION_TAKEAWAY[1], card_formulas=("ridge_point",),
               roofline=({"peak_flops": peak, "bandwidth": bandwidth, "intensity": intensity} if peak else None))


def tensor_dtype(gpu: GPU, rng) -> str:
    """bf16 where the GPU has it (fp16 on V100), sometimes fp8."""
    options = [d for d in ("bf16", "fp8") if gpu.supports(d)] or ["fp16"]
    return rng.choice(options)
# A model served on one GPU leaves room for its KV cache and activations: its weights take at most this share.
FIT_SHARE = 0.9
