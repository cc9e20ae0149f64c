"""Wave quantization: the waves a tiled GEMM runs in and the share of the SMs they keep busy.

"Why does N = 1,800 run slower per FLOP than N = 1,792?"  The SM counts are stated in the problem (A100 108,
H100 SXM 132, B200 148: NVIDIA's guides and the JAX scaling book); one thread block per SM.
"""

from __future__ import annotations

from ... import hardware
from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import an

GPUS = (("a100_80", 108), ("h100_sxm", 132), ("b200", 148))
TILES = ((128, 128), (128, 256), (256, 128))
CONV_EN = ("Each thread block computes one output tile; one block runs per SM at a time, so a wave is as many tiles "
           "as there are SMs. Tiles at the edge count whole.")
CONV_ZH = "每个线程块计算一个输出分块；每个 SM 同时只跑一个线程块，所以一波的分块数等于 SM 数。边缘不满的分块也按整块算。"


@template("roofline.gemm_waves", topic="roofline", title="GEMM waves → wave efficiency", title_zh="GEMM 波数 → 波次效率",
          difficulty=2, target_seconds=150, source="nvidia_mm_guide")
def gemm_waves(rng):
    key, sms = rng.choice(GPUS)
    chip = hardware.get(key)
    gpu = chip.name
    tm, tn = rng.choice(TILES)
    # a size just past a multiple of the tile: the partial tiles and the last wave are the lesson; drawn again until
    # the last wave leaves at least 6 % of the SM time idle (else no rounding is hardly a mistake)
    while True:
        rows, cols = rng.randint(4, 24), rng.randint(4, 24)
        m = tm * rows + rng.choice((0, 8, 16, 64))
        n = tn * cols + rng.choice((0, 8, 16, 64))
        tiles = -(-m // tm) * -(-n // tn)
        if tiles / (-(-tiles // sms) * sms) <= 0.94:
            break
    inputs = {"m": m, "n": n, "tile_m": tm, "tile_n": tn, "sms": sms, "ctas_per_sm": 1}
    return Spec(
        scenario_en=f"A bf16 GEMM whose output C is {m:,} × {n:,} runs on {an(gpu)} ({sms} SMs) with {tm} × {tn} "
                    "tiles.",
        scenario_zh=f"一个输出为 {m:,} × {n:,} 的 bf16 GEMM 在 {gpu}（{sms} 个 SM）上运行，分块为 {tm} × {tn}。",
        givens=(given("m", "Rows of C, M", "C 的行数 M", m), given("n", "Columns of C, N", "C 的列数 N", n),
                given("tile_m", "Tile rows", "分块行数", tm), given("tile_n", "Tile columns", "分块列数", tn),
                given("sms", f"SMs of the {gpu}", f"{gpu} 的 SM 数", sms)),
        asks=(Ask(formula="gemm_waves", unit="", inputs=inputs,
                  prompt_en="How many waves does the GEMM run in?", prompt_zh="这个 GEMM 要跑多少波？"),
              Ask(formula="wave_efficiency", unit="%", inputs=inputs,
                  prompt_en="What share of the SM slots do those waves keep busy, in %?",
                  prompt_zh="这些波次中 SM 槽位的忙碌比例是多少（%）？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(gpu=chip, precision="bf16"),
    )
