"""Roofline templates (R§2-4, C§5)."""

from __future__ import annotations

from ..base import Ask, Spec, given, template

# Seed figures (C§5.2 table); the hardware catalogue replaces these.
_GPUS = (("V100", 125e12, 900e9), ("A100", 312e12, 2039e9), ("H100 SXM", 989e12, 3350e9), ("B200", 2250e12, 8000e9))


@template("roofline.ridge_point", topic="roofline", title="Ridge point of a GPU", title_zh="GPU 的拐点算术强度",
          difficulty=1, target_seconds=60)
def ridge_point(rng):
    name, peak, bw = rng.choice(_GPUS)
    return Spec(
        givens=(given("peak_flops", "Peak dense bf16", "bf16 稠密峰值算力", peak, "flop_rate", "TFLOPS"),
                given("bandwidth", "HBM bandwidth", "HBM 显存带宽", bw, "bandwidth", "GB/s")),
        asks=(Ask(formula="ridge_point", unit="FLOP/B",
                  prompt_en=f"What is the ridge point of the {name} at bf16, in FLOP/B?",
                  prompt_zh=f"{name} 在 bf16 下的拐点算术强度是多少（FLOP/B）？"),),
        conventions_en="TFLOPS = 1e12 FLOP/s (dense); GB/s = 1e9 B/s.",
        conventions_zh="TFLOPS = 1e12 FLOP/s（稠密）；GB/s = 1e9 B/s。",
    )
