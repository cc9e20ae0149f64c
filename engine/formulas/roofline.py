"""The roofline: arithmetic intensity, the ridge point, attainable FLOP/s, GEMM intensity, HBM time and
kernel fusion, and the memory-/compute-bound classification.

The roofline article (R§) and the seeds' module 5 (C§5).  :func:`classify_bound` and its worked
solution live here too: a classification is an answer that is a word, not a formula of the catalogue.
"""

from __future__ import annotations

from ..units import fmt_number, fmt_quantity
from .core import Formula, Misconception, Part
from .inputs import (
    BPE,
    BW,
    CTAS_PER_SM,
    FLOPS,
    GEMM_K,
    GEMM_M,
    GEMM_N,
    INTENSITY,
    KERNELS,
    MEMORY_BYTES,
    N_ELEM,
    PEAK,
    SMS,
    STAGES,
    TILE_K,
    TILE_M,
    TILE_N,
)
from .registry import register

register(
    Formula("arithmetic_intensity", (FLOPS, MEMORY_BYTES),
            "flops/bytes", "intensity", "FLOPs per byte of memory traffic", "R§2.3, C§5.1",
            (Misconception("inverted", "divided bytes by FLOPs", "bytes/flops", "用字节数除以 FLOPs（除反了）"),), "I",
            refs="williams2009",
            decomposition=("intensity = work per byte moved: FLOPs ÷ bytes read from and written to memory",),
            decomposition_zh=("算术强度 = 每搬运一个字节做的计算：FLOPs ÷ 显存读写字节数",),
            takeaway="intensity alone decides which roof applies: compare it with the GPU's ridge point before "
                     "optimising anything.",
            takeaway_zh="只看算术强度就知道受哪条线限制：优化之前先把它和 GPU 的拐点比一比。",
            example={"flops": 100e9, "bytes": 1e9},
            meaning_zh="每字节显存访问对应的 FLOPs"),
    Formula("ridge_point", (PEAK, BW), "peak_flops/bandwidth", "intensity",
            "intensity where the roofline turns from memory-bound to compute-bound", "R§3.2, C§5.2",
            (Misconception("sparse", "used the 2:4-sparse TFLOPS figure (twice the dense one)",
                           "2*peak_flops/bandwidth", "用了 2:4 稀疏的 TFLOPS（是稠密算力的两倍）"),
             Misconception("units_1000", "mixed TFLOPS with GB/s (off by 1000)", "1000*peak_flops/bandwidth",
                           "把 TFLOPS 和 GB/s 混着用了（差 1000 倍）"),
             Misconception("units_0001", "mixed GFLOPS with TB/s (off by 1000)", "peak_flops/bandwidth/1000",
                           "把 GFLOPS 和 TB/s 混着用了（差 1000 倍）"),
             Misconception("inverted", "divided bandwidth by FLOPS", "bandwidth/peak_flops",
                           "用带宽除以 FLOPS（除反了）"),
             Misconception("sixteen_bit_peak", "used the 16-bit (bf16) peak, not the peak of the precision the "
                           "kernel runs in", "peak_flops_16/bandwidth", "用了 16 位（bf16）的峰值，而不是算子所用精度的峰值")),
            "I*",
            refs="williams2009",
            decomposition=("I* = F_peak / BW: the intensity at which moving the bytes takes as long as the math; "
                           "below it the slanted (memory) roof limits, above it the flat (compute) roof",),
            decomposition_zh=("I* = F_peak / BW：搬运数据与计算耗时恰好相等时的算术强度；低于它受斜线（显存带宽）限制，"
                              "高于它受水平线（峰值算力）限制",),
            takeaway="a modern GPU needs {result} to be compute-bound: most kernels other than big GEMMs sit below "
                     "the ridge and are memory-bound.",
            takeaway_zh="现代 GPU 要 {result} 才能算力受限：除大 GEMM 以外，多数算子都在拐点左侧，访存受限。",
            example={"peak_flops": 1000e12, "bandwidth": 4e12},
            meaning_zh="拐点算术强度：Roofline 从访存受限转为算力受限的那一点"),
    Formula("attainable_flops", (INTENSITY, PEAK, BW),
            "min(peak_flops, intensity*bandwidth)", "flop_rate",
            "the roofline: the most FLOP/s a kernel of this intensity can reach", "R§3.1",
            (Misconception("peak", "quoted the peak: the kernel is under the slanted roof", "peak_flops",
                           "直接给了算力峰值：这个算子落在斜线（访存受限）那一段"),
             Misconception("slope", "used I × BW although that is above the flat roof", "intensity*bandwidth",
                           "用了 I × BW，但它已经超过了水平线（算力峰值）")),
            "P",
            refs="williams2009",
            decomposition=("the roofline: a kernel reaches at most min(peak, I × BW): intensity times bandwidth on the "
                           "slanted roof, the peak on the flat one",),
            decomposition_zh=("Roofline：算子最多达到 min(峰值, I × BW)：斜线段是算术强度 × 带宽，水平段是峰值",),
            parts=(Part("slope", "I·BW", "intensity*bandwidth", "flop_rate", "the memory roof at this intensity",
                        "这个算术强度下的带宽上限"),),
            via="min(peak_flops, slope)",
            takeaway="check which roof applies before quoting a number: below the ridge the answer is I × BW, never "
                     "the peak.",
            takeaway_zh="先判断落在哪条线上再报数：在拐点左侧答案是 I × BW，绝不是峰值。",
            example={"intensity": 50, "peak_flops": 1000e12, "bandwidth": 4e12},
            meaning_zh="Roofline：该算术强度的算子最多能达到的 FLOP/s"),
    Formula("gemm_intensity", (GEMM_M, GEMM_N, GEMM_K, BPE),
            "2*m*n*k/(bytes_per_elem*(m*k + k*n + m*n))", "intensity",
            "arithmetic intensity of C = A·B (A: M×K, B: K×N), each matrix moved once", "R§4.1",
            (Misconception("no_factor_2", "counted a multiply-add as 1 FLOP, not 2",
                           "m*n*k/(bytes_per_elem*(m*k + k*n + m*n))", "把一次乘加算成了 1 FLOP，应为 2"),
             Misconception("elements", "divided by elements, not bytes", "2*m*n*k/(m*k + k*n + m*n)", "除以的是元素个数，不是字节数"),
             Misconception("no_output", "left out writing C", "2*m*n*k/(bytes_per_elem*(m*k + k*n))",
                           "漏了写回 C 的访存"),
             # an fp8 GEMM's bytes counted at bf16's 2 B gives the same value as the missing factor 2: both are named
             Misconception("wider_bytes", "counted the bytes of the next wider format (bf16's 2 B for fp8 operands, "
                           "fp32's 4 B for 16-bit ones)", "2*m*n*k/(2*bytes_per_elem*(m*k + k*n + m*n))",
                           "按更宽一档格式的字节数计了（fp8 操作数按 bf16 的 2 B，16 位操作数按 fp32 的 4 B）")),
            "I_GEMM",
            refs="williams2009",
            decomposition=("C = A·B does M·N·K multiply-adds (2 FLOPs each); A (M×K), B (K×N) and C (M×N) each "
                           "cross memory once",),
            decomposition_zh=("C = A·B 共做 M·N·K 次乘加（每次 2 FLOPs）；A（M×K）、B（K×N）、C（M×N）各经过显存一次",),
            parts=(Part("work", "FLOPs", "2*m*n*k", "flop", "2 FLOPs per multiply-add", "每次乘加 2 FLOPs"),
                   Part("traffic", "Bytes", "bytes_per_elem*(m*k + k*n + m*n)", "bytes",
                        "read A and B, write C", "读 A、B，写 C")),
            via="work/traffic",
            takeaway="intensity grows with the smallest dimension: a GEMM with a small M (decode at batch 1 is a GEMV) "
                     "is memory-bound, big square GEMMs are compute-bound.",
            takeaway_zh="算术强度随最小的那一维增长：M 很小的 GEMM（batch 为 1 的 decode 就是 GEMV）访存受限，"
                        "大方阵 GEMM 则算力受限。",
            example={"m": 4096, "n": 4096, "k": 4096, "bytes_per_elem": 2},
            meaning_zh="C = A·B（A：M×K，B：K×N）的算术强度，每个矩阵只搬运一次"),
    Formula("hbm_time", (MEMORY_BYTES, BW),
            "bytes/bandwidth", "time", "time a memory-bound kernel spends moving its bytes at the memory bandwidth",
            "R§3.1",
            (Misconception("bits", "mixed up bits and bytes (off by 8)", "8*bytes/bandwidth", "把比特和字节搞混了（差 8 倍）"),),
            "T_mem",
            decomposition=("a memory-bound kernel sits on the slanted roof: its time is the bytes it moves over the "
                           "memory bandwidth, whatever its FLOPs",),
            decomposition_zh=("访存受限的算子落在斜线上：耗时就是搬运的字节数除以显存带宽，与 FLOPs 无关",),
            takeaway="for a memory-bound kernel every byte not moved is time saved: T = bytes ÷ bandwidth, the FLOPs "
                     "do not enter.",
            takeaway_zh="对访存受限的算子，少搬一个字节就省一份时间：T = 字节数 ÷ 带宽，FLOPs 不起作用。",
            example={"bytes": 1e9, "bandwidth": 2e12},
            meaning_zh="访存受限的算子按显存带宽搬完这些字节所需的时间"),
    Formula("fusion_bytes_saved", (N_ELEM, KERNELS, BPE),
            "2*(kernels - 1)*n_elem*bytes_per_elem", "bytes",
            "HBM traffic saved by fusing a chain of k one-input element-wise kernels into one: unfused, every kernel "
            "reads its input and writes its output (2k passes over the tensor); fused, the input is read once and the "
            "result written once (2 passes)",
            "R§3.3, R§5.2",
            (Misconception("writes_only", "counted only the intermediate writes, not reading them back",
                           "(kernels - 1)*n_elem*bytes_per_elem", "只算了中间结果的写入，漏了再读回来"),
             Misconception("all_passes", "counted all 2k passes as saved: the fused kernel still reads its input and "
                           "writes its output once", "2*kernels*n_elem*bytes_per_elem",
                           "把全部 2k 次读写都算成省下的：融合后的 kernel 仍要读一次输入、写一次输出")),
            "ΔBytes",
            decomposition=("unfused, each of the k kernels reads its input and writes its output: 2k passes over the "
                           "tensor; fused, one read of the input and one write of the result: 2 passes",
                           "saved: the k − 1 intermediate tensors, each written to HBM by one kernel and read back by "
                           "the next: 2(k − 1) passes of n × bytes"),
            decomposition_zh=("未融合时 k 个 kernel 各读一次输入、写一次输出：整个张量过 2k 遍；融合后只读一次输入、"
                              "写一次结果：2 遍",
                              "省下的是 k − 1 个中间结果：每个都被前一个 kernel 写回显存、再被后一个读出来："
                              "2(k − 1) 遍，每遍 n × bytes"),
            parts=(Part("tensor", "Bytes_pass", "n_elem*bytes_per_elem", "bytes", "one pass over the tensor",
                        "张量过一遍"),
                   Part("unfused", "Bytes_unfused", "2*kernels*tensor", "bytes", "k kernels, a read and a write each",
                        "k 个 kernel，各读一次、写一次"),
                   Part("fused", "Bytes_fused", "2*tensor", "bytes", "one read, one write", "读一次、写一次")),
            via="unfused - fused",
            simplification=("the fused kernel moves 2 / 2k = 1/k of the bytes ({fused} instead of {unfused}): "
                            "memory-bound, it runs about k = {kernels} times faster",),
            simplification_zh=("融合后的 kernel 只搬 2 / 2k = 1/k 的字节（{fused}，原来是 {unfused}）：访存受限时速度约为原来的 "
                               "k = {kernels} 倍",),
            takeaway="fusion saves exactly the intermediate tensors' round trips to HBM, 2(k − 1) of the 2k passes: for "
                     "memory-bound element-wise kernels that is (k − 1)/k of their time.",
            takeaway_zh="融合省下的正是中间结果进出显存的往返，2k 遍里的 2(k − 1) 遍：对访存受限的逐元素 kernel，"
                        "省下的就是 (k − 1)/k 的耗时。",
            example={"n_elem": 8192 * 4096, "kernels": 3, "bytes_per_elem": 2},
            meaning_zh="把 k 个单输入逐元素 kernel 融合成一个省下的显存访存量：未融合时每个 kernel 读输入、写输出"
                       "（张量过 2k 遍）；融合后读一次输入、写一次结果（2 遍）"),
)

# Kernel tiling and wave quantization: "why does N = 1,800 run slower per FLOP than N = 1,792? pick a tile that fits
# shared memory".  A thread block computes one tile_m × tile_n output tile; tiles run in waves of sms × ctas_per_sm.
TILES = "ceil(m/tile_m)*ceil(n/tile_n)"
WAVES = f"ceil({TILES}/(sms*ctas_per_sm))"
register(
    Formula("tile_intensity", (TILE_M, TILE_N, BPE), "2*tile_m*tile_n/(bytes_per_elem*(tile_m + tile_n))", "intensity",
            "FLOPs per byte a thread block loads from global memory per K-step of a tiled GEMM: an m × k and a k × n "
            "slice feed 2·m·n·k FLOPs (the output tile's one write ignored): gemm_intensity as K → ∞",
            "nvidia_mm_guide",
            (Misconception("whole_gemm", "gave the whole GEMM's intensity, not the tile's", "2*m*n*k/(bytes_per_elem*(m*k + "
                           "k*n + m*n))", "给出的是整个 GEMM 的算术强度，而不是分块的"),
             Misconception("no_bytes", "forgot the bytes per element (counted FLOPs per element loaded)",
                           "2*tile_m*tile_n/(tile_m + tile_n)", "漏了每个元素的字节数（算成了每加载一个元素的 FLOPs）")),
            "I_tile",
            decomposition=("per K-step of depth k the block loads k·(m_tile + n_tile) elements of A and B and does "
                           "2·m_tile·n_tile·k FLOPs on them: k cancels",),
            decomposition_zh=("每个深度为 k 的 K 步，线程块加载 A 和 B 共 k·(m_tile + n_tile) 个元素，对它们做 "
                              "2·m_tile·n_tile·k 次 FLOP：k 约掉了",),
            parts=(Part("flops_per_k", "2 m n", "2*tile_m*tile_n", "flop", "FLOPs per unit of K", "每单位 K 的 FLOPs"),
                   Part("bytes_per_k", "bytes (m + n)", "bytes_per_elem*(tile_m + tile_n)", "bytes",
                        "bytes loaded per unit of K", "每单位 K 加载的字节数")),
            via="flops_per_k/bytes_per_k",
            simplification=("a square tile of side t gives t / bytes: 128 × 128 in bf16 is 64 FLOP/B, below an H100's "
                            "~295 ridge from HBM — shared-memory reuse and L2 hits are what keep it compute-bound",),
            simplification_zh=("边长为 t 的方形分块是 t / bytes：bf16 的 128 × 128 是 64 FLOP/B，低于 H100 从 HBM 算的约 295 "
                               "的拐点——靠共享内存复用和 L2 命中才保持算力受限",),
            takeaway="the {tile_m} × {tile_n} tile reaches {result} on the bytes it loads: bigger tiles raise the "
                     "intensity, which is why kernels use the largest tile shared memory and registers allow.",
            takeaway_zh="{tile_m} × {tile_n} 的分块对它加载的字节达到 {result}：分块越大强度越高，所以 kernel 会用共享内存和"
                        "寄存器放得下的最大分块。",
            example={"tile_m": 128, "tile_n": 128, "bytes_per_elem": 2},
            meaning_zh="分块 GEMM 中线程块每个 K 步从全局内存每加载一个字节所做的 FLOPs：m × k 和 k × n 两个切片支撑 "
                       "2·m·n·k 次 FLOP（忽略输出分块的一次写回）：即 K → ∞ 时的 gemm_intensity"),
    Formula("gemm_waves", (GEMM_M, GEMM_N, TILE_M, TILE_N, SMS, CTAS_PER_SM), WAVES, "count",
            "waves a tiled GEMM runs in: its output tiles ÷ the tiles the GPU runs at once (SMs × blocks per SM), "
            "rounded up", "nvidia_mm_guide",
            (Misconception("no_round_up", "divided the tiles by the SMs without rounding up",
                           f"{TILES}/(sms*ctas_per_sm)", "用分块数除以 SM 数，没有向上取整"),),
            "waves",
            decomposition=("tiles = ⌈m / m_tile⌉ × ⌈n / n_tile⌉; one wave runs SMs × blocks per SM of them at once; "
                           "a partial last wave still takes a whole wave's time",),
            decomposition_zh=("分块数 = ⌈m / m_tile⌉ × ⌈n / n_tile⌉；一波同时运行 SM 数 × 每 SM 线程块数个分块；"
                              "最后不满的一波也要花整整一波的时间",),
            parts=(Part("tiles", "tiles", TILES, "count", "output tiles of the GEMM", "GEMM 的输出分块数"),
                   Part("slots", "slots", "sms*ctas_per_sm", "count", "tiles one wave runs at once",
                        "一波同时运行的分块数")),
            via="ceil(tiles/slots)",
            takeaway="{tiles} tiles on {slots} slots take {result} waves: a GEMM just past a multiple of the SM count "
                     "pays a whole extra wave for a few tiles.",
            takeaway_zh="{tiles} 个分块、{slots} 个并行槽位要 {result} 波：GEMM 的分块数刚超过 SM 数的整数倍时，"
                        "为了几个分块要多付整整一波。",
            example={"m": 1792, "n": 1792, "tile_m": 256, "tile_n": 128, "sms": 108, "ctas_per_sm": 1},
            meaning_zh="分块 GEMM 要跑的波数：输出分块数 ÷ GPU 同时能跑的分块数（SM 数 × 每 SM 线程块数），向上取整"),
    Formula("wave_efficiency", (GEMM_M, GEMM_N, TILE_M, TILE_N, SMS, CTAS_PER_SM), f"{TILES}/({WAVES}*sms*ctas_per_sm)",
            "ratio", "share of the SM slots that are busy over all the waves of a tiled GEMM (the last wave's idle SMs "
            "are the tail)", "nvidia_mm_guide",
            (Misconception("no_round_up", "divided the tiles by the SMs without rounding up (no idle tail)", "1",
                           "用分块数除以 SM 数，没有向上取整（没算最后一波空闲的尾巴）"),),
            "η_wave",
            decomposition=("busy slots = the tiles; available slots = waves × SMs × blocks per SM; the difference is "
                           "the idle SMs of the last wave",),
            decomposition_zh=("忙碌的槽位 = 分块数；可用的槽位 = 波数 × SM 数 × 每 SM 线程块数；差值就是最后一波里空闲的 SM",),
            parts=(Part("tiles", "tiles", TILES, "count", "output tiles of the GEMM", "GEMM 的输出分块数"),
                   Part("waves", "waves", WAVES, "count", "waves, rounded up", "波数，向上取整"),
                   Part("slots", "slots", "sms*ctas_per_sm", "count", "tiles one wave runs at once",
                        "一波同时运行的分块数")),
            via="tiles/(waves*slots)",
            simplification=("NVIDIA's example: 1,792 × 1,792 with 256 × 128 tiles is 98 tiles on an A100's 108 SMs, "
                            "one wave at 91 %; one more row of tiles can need a second, nearly empty wave",),
            simplification_zh=("NVIDIA 的例子：1,792 × 1,792、256 × 128 的分块共 98 个，放在 A100 的 108 个 SM 上，"
                                "一波、效率 91%；再多一行分块就可能需要几乎空着的第二波",),
            takeaway="{tiles} tiles on {waves} × {slots} slots keep {result} of the SMs busy: pad or re-tile a GEMM so "
                     "its tiles fill whole waves.",
            takeaway_zh="{tiles} 个分块占 {waves} × {slots} 个槽位，SM 的忙碌比例是 {result}：通过补齐或换分块，让 GEMM 的分块填满整波。",
            example={"m": 1792, "n": 1792, "tile_m": 256, "tile_n": 128, "sms": 108, "ctas_per_sm": 1},
            meaning_zh="分块 GEMM 的所有波次中 SM 槽位的忙碌比例（最后一波空闲的 SM 就是尾巴）"),
    Formula("smem_tile_bytes", (TILE_M, TILE_N, TILE_K, STAGES, BPE), "stages*tile_k*(tile_m + tile_n)*bytes_per_elem",
            "bytes", "shared memory a multistage GEMM kernel needs for its A and B slices: stages × k_tile × (m_tile + "
            "n_tile) × bytes; it must fit the per-block limit (~227 KB on an H100: not verified)", "cutlass_pipelines",
            (Misconception("one_stage", "counted one stage's slices, not all the stages in flight",
                           "tile_k*(tile_m + tile_n)*bytes_per_elem", "只算了一级的切片，没算所有在途的级"),
             Misconception("output_tile", "counted the output tile (m_tile × n_tile) instead of the A and B slices",
                           "stages*tile_m*tile_n*bytes_per_elem", "算成了输出分块（m_tile × n_tile），而不是 A 和 B 的切片")),
            "M_smem",
            decomposition=("each stage holds an m_tile × k_tile slice of A and a k_tile × n_tile slice of B; a kernel "
                           "keeps `stages` of them in flight so loads overlap the math. The stage formula follows "
                           "CUTLASS's multistage design and the ~227 KB per-block limit is not verified against a "
                           "primary source",),
            decomposition_zh=("每一级保存 A 的 m_tile × k_tile 切片和 B 的 k_tile × n_tile 切片；kernel 同时保留 stages 级，"
                              "让加载和计算重叠。这个级数公式按 CUTLASS 的多级流水线设计，约 227 KB 的单线程块上限"
                              "未对照一手来源核实",),
            parts=(Part("stage", "k (m + n) bytes", "tile_k*(tile_m + tile_n)*bytes_per_elem", "bytes",
                        "one stage's A and B slices", "一级的 A、B 切片"),),
            via="stages*stage",
            takeaway="{stages} stages of {stage} take {result} of shared memory: the tile, the K depth and the stages "
                     "are traded against the ~227 KB a block may use on an H100.",
            takeaway_zh="{stages} 级、每级 {stage}，共占 {result} 共享内存：分块大小、K 深度和级数要在 H100 每个线程块"
                        "可用的约 227 KB 里权衡。",
            example={"tile_m": 128, "tile_n": 128, "tile_k": 64, "stages": 4, "bytes_per_elem": 2},
            meaning_zh="多级 GEMM kernel 的 A、B 切片所需的共享内存：stages × k_tile × (m_tile + n_tile) × 字节数；"
                       "必须放得进每个线程块的上限（H100 约 227 KB：未核实）"),
)


def classify_bound(intensity: float, ridge: float) -> str:
    """``memory-bound`` if intensity < ridge point else ``compute-bound`` (R§3, C§5)."""
    return "memory-bound" if intensity < ridge else "compute-bound"


def ridge_line(peak: float, bandwidth: float) -> str:
    """``I* = F_peak / BW = 989 TFLOP/s ÷ 3.35 TB/s = 295.2 FLOP/B``: where the ridge point comes from."""
    ridge = peak / bandwidth
    return (f"I* = F_peak / BW = {fmt_quantity(peak, 'flop_rate')} ÷ {fmt_quantity(bandwidth, 'bandwidth')}"
            f" = {fmt_number(ridge)} FLOP/B")


def bound_solution(intensity: float, ridge: float, peak: float | None = None,
                   bandwidth: float | None = None) -> list[str]:
    """The worked solution of a classification: compare I with the ridge point I*
    (computed from peak ÷ bandwidth first when they are given)."""
    verdict = classify_bound(intensity, ridge)
    rel = "<" if intensity < ridge else "≥"
    limit = "memory bandwidth" if verdict == "memory-bound" else "peak compute"
    return [
        *([ridge_line(peak, bandwidth)] if peak and bandwidth else []),
        "bound = memory-bound if I < I* else compute-bound",
        f"  I = {fmt_number(intensity)} FLOP/B {rel} I* = {fmt_number(ridge)} FLOP/B",
        f"  = {verdict} (limited by {limit})",
    ]
