"""A GEMM tile: its intensity on the bytes it loads, then the shared memory its multistage pipeline needs.

"Pick a tile that fits shared memory."  An H100's 256 KB of L1 / shared memory per SM leaves a block at most
~227 KB (not verified against a primary source: the problem states the limit it uses).
"""

from __future__ import annotations

from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import an

TILES = ((64, 128), (128, 128), (128, 256), (256, 128), (64, 256))
CONV_EN = ("bf16 operands (2 B per element). A thread block computes a tile_m × tile_n output tile, loading an "
           "m × k slice of A and a k × n slice of B per K-step; the output tile's one write is ignored. 1 KB = 1,000 B.")
CONV_ZH = ("bf16 操作数（每元素 2 B）。一个线程块计算 tile_m × tile_n 的输出分块，每个 K 步加载 A 的 m × k 切片和 B 的 "
           "k × n 切片；忽略输出分块的一次写回。1 KB = 1,000 B。")


@template("roofline.tile_smem_chain", topic="roofline", title="Tile intensity → shared memory of a multistage tile",
          title_zh="分块的算术强度 → 多级流水分块的共享内存", difficulty=2, target_seconds=150,
          source="nvidia_mm_guide, cutlass_pipelines")
def tile_smem_chain(rng):
    tm, tn = rng.choice(TILES)
    tk = rng.choice((32, 64, 128))
    stages = rng.choice((2, 3, 4, 5))
    size = rng.choice((4096, 8192, 16384))
    return Spec(
        scenario_en=f"{an(f'{size:,}', cap=True)} × {size:,} × {size:,} bf16 GEMM on an H100 uses {tm} × {tn} output tiles, K-slices "
                    f"of {tk} and a {stages}-stage pipeline.",
        scenario_zh=f"H100 上一个 {size:,} × {size:,} × {size:,} 的 bf16 GEMM 用 {tm} × {tn} 的输出分块、深度 {tk} 的 "
                    f"K 切片和 {stages} 级流水线。",
        givens=(given("tile_m", "Tile rows", "分块行数", tm), given("tile_n", "Tile columns", "分块列数", tn),
                given("tile_k", "K-slice depth", "K 切片深度", tk), given("stages", "Pipeline stages", "流水级数", stages),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", 2, "bytes")),
        asks=(Ask(formula="tile_intensity", unit="FLOP/B", extras={"m": size, "n": size, "k": size},
                  prompt_en="What arithmetic intensity does one tile reach on the bytes it loads, in FLOP/B?",
                  prompt_zh="一个分块对它加载的字节能达到多大的算术强度（FLOP/B）？"),
              Ask(formula="smem_tile_bytes", unit="KB",
                  prompt_en="How much shared memory do the pipeline's A and B slices take, in KB? (The block may use "
                            "~227 KB.)",
                  prompt_zh="流水线里 A、B 切片共占多少共享内存（KB）？（每个线程块最多约 227 KB。）")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(),
    )
