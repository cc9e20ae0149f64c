"""Roofline templates (R§2-4, C§5): ridge points, arithmetic intensity, bound classification, critical batch."""

from __future__ import annotations

import re

from engine import formulas
from engine.choices import BOUND_CHOICES
from engine.count_nouns import NotCounted
from engine.formulas import bound_solution, classify_bound
from engine.units import fmt_number, fmt_quantity

from ... import hardware, kit, models
from ...hardware import DTYPE_BYTES, GPU, SEED_TABLE, TFLOPS
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..chip_givens import (
    CONV_EN,
    CONV_ZH,
    FIT_SHARE,
    an,
    bound_lines_zh,
    bw_given,
    card_givens,
    direction_ask,
    dtype_given,
    gemm_i,
    peak_given,
    ridge,
    tensor_dtype,
)

BOUND_PROMPT_EN = "Answer memory-bound or compute-bound."
BOUND_PROMPT_ZH = "请回答「访存受限」或「算力受限」。"


def zh_gap(word: str) -> str:
    """The space Chinese text leaves before a Latin word (``计算 ReLU``) and not before a Chinese one (``计算缩放平移``)."""
    return "" if re.match(r"[\u4e00-\u9fff]", word) else " "


bw_unit = kit.bw_unit  # TB/s for a tenth of a TB/s, else GB/s: one definition, in the kit


BOUND_TAKEAWAY = {
    "memory-bound": ("I < I*: the kernel waits on memory, so a chip with more FLOP/s will not speed it up; moving "
                     "fewer bytes (fusion, quantisation, a bigger batch) will.",
                     "I < I*：算子在等显存，换一张算力更高的卡不会变快；减少搬运的字节（算子融合、量化、增大 batch）才有用。"),
    "compute-bound": ("I ≥ I*: the math units are the limit, so the tensor-core peak, and how close the kernel gets "
                      "to it, sets the speed.",
                      "I ≥ I*：瓶颈在计算单元，速度由 Tensor Core 峰值以及算子能逼近峰值多少决定。"),
}


def bound_ask(intensity: float, ridge_value: float, prompt_en: str, prompt_zh: str, *, peak: float,
              bandwidth: float, lead_en: tuple[str, ...] = (), lead_zh: tuple[str, ...] = ()) -> Ask:
    """A memory-/compute-bound choice with the engine's worked comparison as its explanation:
    I* from peak ÷ bandwidth first, then I against I*."""
    verdict = classify_bound(intensity, ridge_value)
    return Ask(prompt_en=f"{prompt_en} {BOUND_PROMPT_EN}", prompt_zh=f"{prompt_zh}{BOUND_PROMPT_ZH}",
               choices=BOUND_CHOICES, answer=verdict,
               explanation=lead_en + tuple(bound_solution(intensity, ridge_value, peak, bandwidth)),
               explanation_zh=lead_zh + tuple(bound_lines_zh(intensity, ridge_value, peak, bandwidth)),
               takeaway=BOUND_TAKEAWAY[verdict][0], takeaway_zh=BOUND_TAKEAWAY[verdict][1],
               card_formulas=("ridge_point",),
               roofline={"peak_flops": peak, "bandwidth": bandwidth, "intensity": intensity})


def pick_card(rng, dtypes: tuple[str, ...] = ("bf16", "fp16", "fp8", "fp32")) -> tuple[GPU, str]:
    """A catalogue GPU and one of its precisions among ``dtypes``."""
    gpu = hardware.draw(rng, [g for g in hardware.GPUS if any(g.supports(d) for d in dtypes)],
                        lambda g: any(g.supports(d) for d in dtypes))
    return gpu, rng.choice([d for d in dtypes if gpu.supports(d)])


POW2 = (256, 512, 1024, 2048, 4096, 8192, 16384)

# --------------------------------------------------------------------------- #
# Ridge point


def seed_row_note(row) -> tuple[str, str]:
    """Why a cheat-sheet row is quoted at a precision other than the table's "BF16" header (the V100)."""
    if row.dtype == "bf16":
        return "", ""
    return (f" (The cheat-sheet quotes every GPU as BF16, but the {row.name}'s figure is {row.dtype}: "
            f"{row.name} has no bf16 tensor cores.)",
            f"速查表对每张 GPU 都写 BF16，但 {row.name} 的数据是 {row.dtype}：{row.name} 没有 bf16 Tensor Core。")



def _gemm_givens(m: int, n: int, k: int) -> tuple:
    """A GEMM's M, N, K: sizes, not counts of things (m and n also name micro-batches and GPUs elsewhere)."""
    return (given("m", "M", "M", m, counts=NotCounted.SIZE), given("n", "N", "N", n, counts=NotCounted.SIZE),
            given("k", "K", "K", k))

@template("roofline.ridge_point", topic="roofline", title="Ridge point of a GPU (formula given)",
          title_zh="GPU 的拐点算术强度（给出公式）", difficulty=1, target_seconds=60, source="R§3.2, C§5.2, gpu_datasheets")
def ridge_point(rng):
    source = rng.random()
    note_en = note_zh = ""
    world = None
    if source < 0.2:
        row = rng.choice(SEED_TABLE)
        name, peak, bw, dtype = f"{row.name} (cheat-sheet figures)", row.peak, row.bandwidth, row.dtype
        note_en, note_zh = seed_row_note(row)
        world = World(gpu=hardware.get(row.gpu), precision=row.dtype)
    elif source < 0.6 or hardware.chosen() is not None:  # the learner's own chip, when chosen (--hardware)
        gpu, dtype = pick_card(rng)
        name, peak, bw = gpu.name, gpu.peak(dtype), gpu.bandwidth
        world = World(gpu=gpu, precision=dtype)
    else:
        name, dtype = "a hypothetical accelerator", rng.choice(("fp16", "bf16", "fp8"))
        peak = rng.choice((100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1600, 2000)) * TFLOPS
        bw = rng.choice((1, 1.5, 2, 2.5, 3, 4, 5, 6, 8)) * 1e12
    name_zh = name.replace("a hypothetical accelerator", "一张假想的加速卡").replace(" (cheat-sheet figures)", "（速查表数据）")
    return Spec(
        givens=(given("card", "Card", "加速卡", name, value_zh=name_zh), dtype_given(dtype), peak_given(peak, dtype),
                bw_given(bw)),
        asks=(Ask(formula="ridge_point", unit="FLOP/B",
                  prompt_en=f"The ridge point is I* = peak FLOP/s ÷ memory bandwidth. What is it for {name} at "
                            f"{dtype}, in FLOP/B?{note_en}",
                  prompt_zh=f"拐点算术强度 I* = 峰值算力 ÷ 显存带宽。{name_zh} 在 {dtype} 下的拐点是多少（FLOP/B）？{note_zh}",
                  roofline={"peak_flops": peak, "bandwidth": bw}),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH, world=world,
    )


# (compute share of peak, bandwidth share) a sustained-figure problem uses; (1, 1) = datasheet
SUSTAINED = ((1.0, 1.0), (1.0, 1.0), (0.8, 0.9), (0.7, 0.9), (0.75, 0.85), (0.8, 0.8))


@template("roofline.ridge_named", topic="roofline", title="Ridge point of a named GPU at a precision",
          title_zh="指定 GPU 与精度的拐点", difficulty=2, target_seconds=75, source="R§3.3, gpu_datasheets")
def ridge_named(rng):
    gpu, dtype = pick_card(rng)
    c, b = rng.choice(SUSTAINED)
    peak, bw = gpu.peak(dtype) * c, gpu.bandwidth * b
    givens = card_givens(gpu, dtype)
    lead_en: tuple[str, ...] = ()
    lead_zh: tuple[str, ...] = ()
    if (c, b) == (1.0, 1.0):
        extra_en, extra_zh = "Use the datasheet figures.", "使用规格书数据。"
    else:
        givens += (given("compute_share", "Sustained share of peak (GEMM)", "GEMM 可持续达到的峰值比例", c, "ratio", "%"),
                   given("bandwidth_share", "Sustained share of bandwidth (copy)", "拷贝可持续达到的带宽比例", b,
                         "ratio", "%"))
        extra_en = (f"Use the sustained figures instead of the datasheet: large GEMMs reach {c:.0%} of peak, "
                    f"streaming copies {b:.0%} of the bandwidth.")
        extra_zh = f"不用规格书数据，而用可持续数据：大 GEMM 能达到峰值的 {c:.0%}，流式拷贝能达到带宽的 {b:.0%}。"
        lead_en = (f"sustained peak = {c:.0%} × {fmt_quantity(gpu.peak(dtype), 'flop_rate', unit='TFLOPS')}"
                   f" = {fmt_quantity(peak, 'flop_rate', unit='TFLOPS')}; sustained bandwidth = {b:.0%} × "
                   f"{fmt_quantity(gpu.bandwidth, 'bandwidth', unit='GB/s')} = {fmt_quantity(bw, 'bandwidth', unit='GB/s')}",)
        lead_zh = (f"可持续峰值 = {c:.0%} × {fmt_quantity(gpu.peak(dtype), 'flop_rate', unit='TFLOPS')}"
                   f" = {fmt_quantity(peak, 'flop_rate', unit='TFLOPS')}；可持续带宽 = {b:.0%} × "
                   f"{fmt_quantity(gpu.bandwidth, 'bandwidth', unit='GB/s')} = {fmt_quantity(bw, 'bandwidth', unit='GB/s')}",)
    return Spec(
        givens=givens,
        asks=(Ask(formula="ridge_point", unit="FLOP/B", inputs={"peak_flops": peak, "bandwidth": bw},
                  prompt_en=f"{extra_en} What is the ridge point of the {gpu.name} at {dtype}, in FLOP/B?",
                  prompt_zh=f"{extra_zh}{gpu.name} 在 {dtype} 下的拐点算术强度是多少（FLOP/B）？",
                  explanation=lead_en, explanation_zh=lead_zh,
                  roofline={"peak_flops": peak, "bandwidth": bw}),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH, world=World(gpu=gpu, precision=dtype),
    )


# --------------------------------------------------------------------------- #
# Arithmetic intensity


# kernels a profiler might report, with the arithmetic intensities such kernels really have (FLOP/B)
PROFILED_KERNELS = (("a fused attention kernel", "一个融合后的注意力算子", 20, 1000),
                    ("a GEMM kernel", "一个 GEMM 算子", 10, 2000),
                    ("a LayerNorm kernel", "一个 LayerNorm 算子", 0.5, 5),
                    ("a custom MoE routing kernel", "一个自定义 MoE 路由算子", 0.1, 10),
                    ("a convolution kernel", "一个卷积算子", 5, 500))
COUNT_UNITS_EN = "MB = 1e6 B, GB = 1e9 B, TB = 1e12 B; GFLOP = 1e9 FLOP, TFLOP = 1e12 FLOP, PFLOP = 1e15 FLOP."
COUNT_UNITS_ZH = "MB = 1e6 B，GB = 1e9 B，TB = 1e12 B；GFLOP = 1e9 FLOP，TFLOP = 1e12 FLOP，PFLOP = 1e15 FLOP。"


@template("roofline.intensity_counts", topic="roofline", title="Arithmetic intensity from FLOPs and bytes",
          title_zh="由 FLOPs 与字节数求算术强度", difficulty=1, target_seconds=45)
def intensity_counts(rng):
    kernel_en, kernel_zh, low, high = rng.choice(PROFILED_KERNELS)
    while True:  # counts whose ratio is an intensity such a kernel really has
        flops = rng.choice((1, 2, 4, 5, 8, 16, 25, 40, 64, 100, 128, 256, 500)) * 10 ** rng.choice((9, 10, 11, 12))
        nbytes = rng.choice((1, 2, 4, 5, 8, 10, 16, 20, 32, 50, 64, 100)) * 10 ** rng.choice((8, 9, 10))
        if low <= flops / nbytes <= high:
            break
    return Spec(
        givens=(given("flops", "FLOPs executed", "浮点运算次数", flops, "flop"),
                given("bytes", "HBM traffic (bytes read + written)", "显存读写字节数", nbytes, "bytes")),
        asks=(Ask(formula="arithmetic_intensity", unit="FLOP/B",
                  prompt_en=f"A profiler reports these counts for {kernel_en}. Arithmetic intensity is "
                            "I = FLOPs ÷ bytes moved to/from memory. What is I, in FLOP/B?",
                  prompt_zh=f"性能分析工具给出了{kernel_zh}的上述计数。算术强度 I = 浮点运算次数 ÷ 显存读写字节数。"
                            "I 是多少（FLOP/B）？"),),
        conventions_en=COUNT_UNITS_EN, conventions_zh=COUNT_UNITS_ZH,
    )


GEMM_CONV_EN = ("Count a multiply-add as 2 FLOPs; A, B and C each cross HBM exactly once (A and B read, C written); "
                "all three in the given precision.")
GEMM_CONV_ZH = "一次乘加计 2 FLOPs；A、B、C 各经过显存恰好一次（读 A、B，写 C），三者都用给定精度。"


@template("roofline.gemm_intensity_square", topic="roofline", title="Intensity of a square GEMM (formula given)",
          title_zh="方阵 GEMM 的算术强度（给出公式）", difficulty=1, target_seconds=60)
def gemm_intensity_square(rng):
    n = rng.choice((64, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 5120, 6144, 8192, 12288, 16384, 32768))
    dtype = rng.choice(("fp32", "bf16", "fp16", "fp8"))
    bpe = DTYPE_BYTES[dtype]
    short, numbers = {4.0: ("N/6", f"{n} / 6"), 2.0: ("N/3", f"{n} / 3"), 1.0: ("2N/3", f"2 × {n} / 3")}[bpe]
    closed = f"2N³ / ({bpe:g} · 3N²) = {short} = {numbers} = {fmt_number(gemm_i(n, n, n, bpe))} FLOP/B"
    return Spec(
        givens=(given("n", "N", "N", n), dtype_given(dtype),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="gemm_intensity", unit="FLOP/B",
                  inputs={"m": n, "n": n, "k": n, "bytes_per_elem": DTYPE_BYTES[dtype]},
                  simplification=("square GEMM: 2N³ / (bytes · 3N²) = 2N / (3 · bytes), so intensity grows linearly "
                                  f"with N; {dtype}: {closed}",),
                  simplification_zh=("方阵 GEMM：2N³ / (字节数 · 3N²) = 2N / (3 · 字节数)，算术强度随 N 线性增长；"
                                     f"{dtype}：{closed}",),
                  prompt_en=f"C = A·B with A, B, C all N×N in {dtype}. FLOPs = 2N³, bytes = 3N² × bytes per element. "
                            "What is the arithmetic intensity, in FLOP/B?",
                  prompt_zh=f"C = A·B，A、B、C 都是 N×N 的 {dtype} 矩阵。FLOPs = 2N³，字节数 = 3N² × 每元素字节数。"
                            "算术强度是多少（FLOP/B）？"),),
        conventions_en=GEMM_CONV_EN, conventions_zh=GEMM_CONV_ZH,
    )


@template("roofline.gemm_intensity", topic="roofline", title="Arithmetic intensity of a GEMM",
          title_zh="GEMM 的算术强度", difficulty=2, target_seconds=90)
def gemm_intensity(rng):
    m, n, k = (rng.choice((1, 8, 16, 32, 64, 128) + POW2) for _ in range(3))
    dtype = rng.choice(("fp32", "bf16", "fp16", "fp8"))
    return Spec(
        givens=(given("m", "M (rows of A and C)", "M（A、C 的行数）", m),
                given("n", "N (columns of B and C)", "N（B、C 的列数）", n),
                given("k", "K (inner dimension)", "K（内积维度）", k), dtype_given(dtype),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="gemm_intensity", unit="FLOP/B",
                  prompt_en=f"C = A·B with A M×K and B K×N, all in {dtype}. What is the arithmetic intensity, in FLOP/B?",
                  prompt_zh=f"C = A·B，A 为 M×K，B 为 K×N，全部为 {dtype}。算术强度是多少（FLOP/B）？"),),
        conventions_en=GEMM_CONV_EN, conventions_zh=GEMM_CONV_ZH,
    )


# element-wise ops: (text en, text zh, FLOPs per element, tensors read, tensors written)
ELEMENTWISE = (
    ("y = x + 1", "y = x + 1", 1, 1, 1),
    ("ReLU, y = max(x, 0) (1 FLOP per element)", "ReLU，y = max(x, 0)（每元素 1 FLOP）", 1, 1, 1),
    ("residual add, z = x + y", "残差相加 z = x + y", 1, 2, 1),
    ("axpy, z = a·x + y with a scalar a", "axpy：z = a·x + y（a 为标量）", 2, 2, 1),
    ("dropout apply, y = x · mask (mask stored in the same precision)", "dropout 应用 y = x · mask（mask 同精度存储）",
     1, 2, 1),
    ("scale and shift, y = x · s + t with s and t full tensors", "缩放平移 y = x · s + t（s、t 都是完整张量）", 2, 3, 1),
    ("GELU (tanh form; count it as 8 FLOPs per element)", "GELU（tanh 近似，按每元素 8 FLOPs 计）", 8, 1, 1),
)


# Fused kernels of a transformer layer, drawn last (over half the seeds) so the others keep their problem: the same
# fields, then the bytes per element the kernel also writes in another format (a 1-byte dropout mask, an fp8 output)
# and what they are
FUSED_ELEMENTWISE = (
    ("SiLU, y = x / (1 + e^(−x)) (count 4 FLOPs per element: negate, exp, add, divide)",
     "SiLU，y = x / (1 + e^(−x))（每元素按 4 FLOPs 计：取负、exp、加 1、相除）", 4, 1, 1, 0, "", ""),
    ("fused SwiGLU, y = SiLU(g) · u (count 5 FLOPs per element: SiLU 4 + multiply 1)",
     "融合的 SwiGLU，y = SiLU(g) · u（每元素按 5 FLOPs 计：SiLU 4 + 相乘 1）", 5, 2, 1, 0, "", ""),
    ("fused GeGLU, y = GELU(g) · u (count 9 FLOPs per element: tanh-form GELU 8 + multiply 1)",
     "融合的 GeGLU，y = GELU(g) · u（每元素按 9 FLOPs 计：tanh 近似的 GELU 8 + 相乘 1）", 9, 2, 1, 0, "", ""),
    ("bias + GELU, y = GELU(x + b) with a bias vector b (one row: its traffic is negligible; count 9 FLOPs per element: "
     "add 1 + GELU 8)", "偏置 + GELU，y = GELU(x + b)（b 为偏置向量，只有一行，访存忽略不计；每元素按 9 FLOPs 计：相加 1 + GELU 8）",
     9, 1, 1, 0, "", ""),
    ("rotary embedding (RoPE), y = x · cos θ + rotate(x) · sin θ with small cached cos/sin tables (count 3 FLOPs "
     "per element)", "旋转位置编码（RoPE），y = x · cos θ + rotate(x) · sin θ（cos/sin 表很小、已缓存；每元素按 3 FLOPs 计）",
     3, 1, 1, 0, "", ""),
    ("squared ReLU, y = max(x, 0)² (Primer, Nemotron-4; count 2 FLOPs per element: max, multiply)",
     "平方 ReLU，y = max(x, 0)²（Primer、Nemotron-4 使用；每元素按 2 FLOPs 计：取最大、相乘）", 2, 1, 1, 0, "", ""),
    ("logit soft-capping, y = c · tanh(x / c) (Gemma 2; count 3 FLOPs per element: divide, tanh, multiply)",
     "logit 软截断，y = c · tanh(x / c)（Gemma 2 使用；每元素按 3 FLOPs 计：相除、tanh、相乘）", 3, 1, 1, 0, "", ""),
    ("dropout in training, its mask drawn in the kernel and written as 1 byte per element for the backward pass "
     "(count 2 FLOPs per element: compare, scale)",
     "训练中的 dropout：掩码在 kernel 内生成，并以每元素 1 字节写出供反向传播使用（每元素按 2 FLOPs 计：比较、缩放）", 2, 1, 1, 1,
     "mask", "掩码"),
    ("Megatron's fused bias + dropout + residual add, y = r + dropout(x + b) (the bias vector's traffic is negligible), "
     "writing a 1-byte mask per element for the backward pass (count 4 FLOPs per element: add, compare, scale, add)",
     "Megatron 的融合偏置 + dropout + 残差相加，y = r + dropout(x + b)（偏置向量的访存忽略不计），每元素另写 1 字节掩码供反向传播"
     "使用（每元素按 4 FLOPs 计：相加、比较、缩放、相加）", 4, 2, 1, 1, "mask", "掩码"),
    ("the cast to fp8 (E4M3) for the next GEMM, y = clamp(x · s, ±448) with a per-tensor scale s, written as 1 byte "
     "per element (count 3 FLOPs per element: multiply, min, max)",
     "为下一个 GEMM 转换为 fp8（E4M3）：y = x · s 截断到 ±448（s 为逐张量缩放因子），输出每元素 1 字节（每元素按 3 FLOPs 计："
     "相乘、取最小、取最大）", 3, 1, 0, 1, "fp8 output", "fp8 输出"),
)
FUSED_SHARE = 0.7


@template("roofline.elementwise_intensity", topic="roofline", title="Arithmetic intensity of an element-wise op",
          title_zh="逐元素算子的算术强度", difficulty=3, target_seconds=90)
def elementwise_intensity(rng):
    op_en, op_zh, f, reads, writes = rng.choice(ELEMENTWISE)
    n = 2 ** rng.choice(range(20, 31))
    dtype = rng.choice(("fp32", "bf16", "fp16"))
    bpe = DTYPE_BYTES[dtype]
    extra, extra_en, extra_zh = 0, "", ""
    if rng.random() < FUSED_SHARE:  # drawn last: a transformer layer's fused kernel instead
        op_en, op_zh, f, reads, writes, extra, extra_en, extra_zh = rng.choice(FUSED_ELEMENTWISE)
    flops, nbytes = n * f, n * ((reads + writes) * bpe + extra)
    return Spec(
        givens=(given("op", "Operation", "算子", op_en, value_zh=op_zh),
                given("n_elem", "Elements per tensor", "每个张量的元素数", n),
                dtype_given(dtype)),
        asks=(Ask(formula="arithmetic_intensity", unit="FLOP/B", inputs={"flops": flops, "bytes": nbytes},
                  explanation=(f"FLOPs = {n:,} × {f} = {fmt_number(flops)}; bytes = {n:,} × ({reads} read + {writes} "
                               f"written) × {bpe:g} B{f' + {n:,} × {extra} B {extra_en}' if extra else ''} = {fmt_number(nbytes)} B",),
                  explanation_zh=(f"FLOPs = {n:,} × {f} = {fmt_number(flops)}；字节数 = {n:,} × （读 {reads} 个 + 写 "
                                  f"{writes} 个张量）× {bpe:g} B{f' + {n:,} × {extra} B {extra_zh}' if extra else ''} = "
                                  f"{fmt_number(nbytes)} B",),
                  prompt_en=f"A standalone kernel computes {op_en} over tensors of {n:,} {dtype} elements, reading "
                            "its inputs from HBM and writing its output back once. What is its arithmetic intensity, "
                            "in FLOP/B?",
                  prompt_zh=f"一个独立 kernel 在 {n:,} 个 {dtype} 元素的张量上计算{zh_gap(op_zh)}{op_zh}，输入从显存读一次、输出写回一次。"
                            "它的算术强度是多少（FLOP/B）？"),),
        conventions_en="Each input tensor is read once and the output written once; scalars cost no traffic.",
        conventions_zh="每个输入张量读一次、输出写一次；标量不计访存。",
    )


# row-wise normalisations: (name, FLOPs per element, what the count covers en / zh)
NORMS = (
    ("LayerNorm", 8, "mean 1 + variance 3 + normalise 2 + scale/shift 2", "均值 1 + 方差 3 + 归一化 2 + 缩放平移 2"),
    ("Softmax", 5, "max 1 + subtract 1 + exp 1 + sum 1 + divide 1", "求最大值 1 + 相减 1 + exp 1 + 求和 1 + 相除 1"),
    ("RMSNorm", 4, "square 1 + sum 1 + scale by 1/rms 1 + multiply by gain 1",
     "平方 1 + 求和 1 + 乘 1/rms 1 + 乘增益 1"),
)


# Fused row-wise kernels of a transformer layer, drawn last (over half the seeds) so the others keep their problem:
# (name en, name zh, FLOPs per element, what the count covers en / zh, tensors of the row's length read and written in
# the drawn precision, bytes per element written in fp8 or as a 1-byte mask, what the kernel moves en / zh)
FUSED_NORMS = (
    ("residual add + RMSNorm", "残差相加 + RMSNorm", 5, "add 1 + RMSNorm 4", "相加 1 + RMSNorm 4", 4, 0,
     "reads x and the residual, writes the new residual and the normalised output",
     "读 x 和残差，写出新的残差和归一化输出"),
    ("residual add + LayerNorm", "残差相加 + LayerNorm", 9, "add 1 + LayerNorm 8", "相加 1 + LayerNorm 8", 4, 0,
     "reads x and the residual, writes the new residual and the normalised output",
     "读 x 和残差，写出新的残差和归一化输出"),
    ("scaled, causally masked Softmax", "缩放 + 因果掩码 + Softmax", 7, "scale 1 + mask 1 + Softmax 5",
     "缩放 1 + 掩码 1 + Softmax 5", 2, 0, "reads the scores and writes the probabilities; the mask comes from the "
     "indices, not from memory", "读注意力分数、写出概率；掩码由下标算出，不读显存"),
    ("Softmax backward, dx = y ⊙ (dy − Σ y·dy)", "Softmax 反向，dx = y ⊙ (dy − Σ y·dy)", 4,
     "multiply 1 + sum 1 + subtract 1 + multiply 1", "相乘 1 + 求和 1 + 相减 1 + 相乘 1", 3, 0, "reads y and dy, writes dx",
     "读 y 和 dy，写出 dx"),
    ("Softmax + dropout", "Softmax + dropout", 7, "Softmax 5 + dropout 2 (compare, scale)",
     "Softmax 5 + dropout 2（比较、缩放）", 2, 1, "reads the scores, writes the probabilities and a 1-byte dropout mask "
     "per element for the backward pass", "读注意力分数，写出概率，并为反向传播每元素写 1 字节的 dropout 掩码"),
    ("RMSNorm with an fp8 output", "输出 fp8 的 RMSNorm", 5, "RMSNorm 4 + scale for the cast 1", "RMSNorm 4 + 转换前缩放 1",
     1, 1, "reads x, writes y in fp8 (1 byte) for the next GEMM", "读 x，为下一个 GEMM 以 fp8（1 字节）写出 y"),
    ("LayerNorm with an fp8 output", "输出 fp8 的 LayerNorm", 9, "LayerNorm 8 + scale for the cast 1",
     "LayerNorm 8 + 转换前缩放 1", 1, 1, "reads x, writes y in fp8 (1 byte) for the next GEMM",
     "读 x，为下一个 GEMM 以 fp8（1 字节）写出 y"),
    ("residual add + RMSNorm with an fp8 output", "残差相加 + 输出 fp8 的 RMSNorm", 6,
     "add 1 + RMSNorm 4 + scale for the cast 1", "相加 1 + RMSNorm 4 + 转换前缩放 1", 3, 1,
     "reads x and the residual, writes the new residual and y in fp8 (1 byte) for the next GEMM",
     "读 x 和残差，写出新的残差，并为下一个 GEMM 以 fp8（1 字节）写出 y"),
    ("adaptive LayerNorm (DiT's adaLN), y = LN(x) · (1 + s) + t", "自适应 LayerNorm（DiT 的 adaLN），y = LN(x) · (1 + s) + t",
     9, "LayerNorm without its affine 6 + add 1 + multiply 1 + add 1", "不含仿射的 LayerNorm 6 + 相加 1 + 相乘 1 + 相加 1", 2, 0,
     "reads x and writes y (s and t, one vector per sample, are negligible)", "读 x、写 y（s 和 t 每个样本只有一个向量，忽略不计）"),
)
FUSED_NORM_SHARE = 0.6


@template("roofline.norm_intensity", topic="roofline", title="Intensity of LayerNorm / Softmax / RMSNorm",
          title_zh="LayerNorm / Softmax / RMSNorm 的算术强度", difficulty=3, target_seconds=90)
def norm_intensity(rng):
    name, f, what_en, what_zh = rng.choice(NORMS)
    tokens = rng.choice((512, 1024, 2048, 4096, 8192, 16384))
    width = rng.choice((1024, 2048, 4096, 5120, 8192, 12288, 16384))
    dtype = rng.choice(("fp32", "bf16", "fp16"))
    bpe = DTYPE_BYTES[dtype]
    n = tokens * width
    if rng.random() < FUSED_NORM_SHARE:  # drawn last: a fused kernel of the layer instead
        return _fused_norm(rng.choice(FUSED_NORMS), tokens, width, dtype)
    what = "rows of the attention scores" if name == "Softmax" else "token vectors"
    what_cn = "注意力分数的行" if name == "Softmax" else "token 向量"
    return Spec(
        givens=(given("op", "Operation", "算子", name), given("rows", "Rows", "行数", tokens),
                given("width", "Row length", "每行长度", width), dtype_given(dtype),
                given("flops_per_elem", "FLOPs per element", "每元素 FLOPs", f)),
        asks=(Ask(formula="arithmetic_intensity", unit="FLOP/B", inputs={"flops": n * f, "bytes": 2 * n * bpe},
                  explanation=(f"FLOPs = {tokens:,} × {width:,} × {f}; bytes = {tokens:,} × {width:,} × 2 (read x, "
                               f"write y) × {bpe:g} B",),
                  explanation_zh=(f"FLOPs = {tokens:,} × {width:,} × {f}；字节数 = {tokens:,} × {width:,} × 2（读 x、写 y）"
                                  f" × {bpe:g} B",),
                  prompt_en=f"A fused {name} kernel processes {tokens:,} {what} of length {width:,} in {dtype}. "
                            f"Count {f} FLOPs per element ({what_en}); per-row work and the parameter vectors are "
                            "negligible; the input is read from HBM once and the output written once. What is the "
                            "arithmetic intensity, in FLOP/B?",
                  prompt_zh=f"一个融合的 {name} kernel 处理 {tokens:,} 条长度为 {width:,} 的 {what_cn}（{dtype}）。"
                            f"每元素按 {f} FLOPs 计（{what_zh}）；每行的额外计算和参数向量忽略不计；输入从显存读一次、输出写一次。"
                            "算术强度是多少（FLOP/B）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


def _fused_norm(op: tuple, tokens: int, width: int, dtype: str) -> Spec:
    """A fused row-wise kernel: the tensors it moves in ``dtype``, and the bytes it writes in one byte each."""
    name, name_zh, f, what_en, what_zh, tensors, one_byte, moves_en, moves_zh = op
    bpe, n = DTYPE_BYTES[dtype], tokens * width
    nbytes = n * (tensors * bpe + one_byte)
    one = f" + {one_byte} B" if one_byte else ""
    rows_en = "rows of attention scores" if "Softmax" in name else "token vectors"
    rows_zh = "注意力分数的行" if "Softmax" in name else "token 向量"
    return Spec(
        givens=(given("op", "Operation", "算子", name, value_zh=name_zh), given("rows", "Rows", "行数", tokens),
                given("width", "Row length", "每行长度", width), dtype_given(dtype),
                given("flops_per_elem", "FLOPs per element", "每元素 FLOPs", f)),
        asks=(Ask(formula="arithmetic_intensity", unit="FLOP/B", inputs={"flops": n * f, "bytes": nbytes},
                  explanation=(f"the kernel {moves_en}: {tensors} × {bpe:g} B{one} per element",
                               f"FLOPs = {tokens:,} × {width:,} × {f}; bytes = {tokens:,} × {width:,} × "
                               f"({tensors} × {bpe:g} B{one})"),
                  explanation_zh=(f"这个 kernel {moves_zh}：每元素 {tensors} × {bpe:g} B{one}",
                                  f"FLOPs = {tokens:,} × {width:,} × {f}；字节数 = {tokens:,} × {width:,} × "
                                  f"({tensors} × {bpe:g} B{one})"),
                  prompt_en=f"A fused kernel runs {name} over {tokens:,} {rows_en} of length {width:,} in {dtype}; "
                            f"it {moves_en}, each from or to HBM once. Count {f} FLOPs per element ({what_en}); per-row "
                            "work and the parameter vectors are negligible. What is the arithmetic intensity, in FLOP/B?",
                  prompt_zh=f"一个融合 kernel 对 {tokens:,} 条长度为 {width:,} 的 {rows_zh}（{dtype}）做"
                            f"{zh_gap(name_zh)}{name_zh}；它{moves_zh}，每个张量只经过显存一次。每元素按 {f} FLOPs 计（{what_zh}）；"
                            "每行的额外计算和参数向量忽略不计。算术强度是多少（FLOP/B）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
    )


# --------------------------------------------------------------------------- #
# The roof itself


@template("roofline.attainable", topic="roofline", title="Attainable FLOP/s under the roof",
          title_zh="Roofline 模型下可达到的算力", difficulty=2, target_seconds=75)
def attainable(rng):
    gpu, dtype = pick_card(rng, ("bf16", "fp16", "fp8"))
    # clear of the ridge, or quoting the peak / I × BW (the wrong roof) would grade correct
    intensity = _clear_intensity(rng, (1, 2, 4, 8, 16, 32, 64, 100, 128, 200, 256, 400, 512, 1000, 1024, 2048),
                                 ridge(gpu.peak(dtype), gpu.bandwidth))
    return Spec(
        givens=card_givens(gpu, dtype) + (given("intensity", "Kernel arithmetic intensity", "算子的算术强度",
                                                intensity, "intensity", "FLOP/B"),),
        asks=(Ask(formula="attainable_flops", unit="TFLOPS",
                  prompt_en=f"By the roofline model, what is the most {an(dtype)} kernel of this intensity can reach on "
                            f"the {gpu.name}, in TFLOPS?",
                  prompt_zh=f"按 Roofline 模型，这个算术强度的 {dtype} 算子在 {gpu.name} 上最多能达到多少 TFLOPS？",
                  roofline={"peak_flops": gpu.peak(dtype), "bandwidth": gpu.bandwidth, "intensity": intensity}),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH, world=World(gpu=gpu, precision=dtype),
    )


# how far (relative) a drawn intensity is from the ridge: the two regimes are told apart
CLEAR_OF_RIDGE = 0.15


def _clear_intensity(rng, options: tuple[float, ...], ridge_value: float) -> float:
    """One of ``options`` clearly (>15 %) on one side of the ridge."""
    while True:
        intensity = rng.choice(options)
        if abs(intensity / ridge_value - 1) > CLEAR_OF_RIDGE:
            return intensity


def _clear_gemm(rng, ridge_value: float, bpe: float) -> tuple[int, int, int, float]:
    """A GEMM whose intensity is clearly (>15 %) on one side of the ridge."""
    while True:
        m = rng.choice((1, 4, 16, 32, 64, 128) + POW2)
        n, k = rng.choice(POW2), rng.choice(POW2)
        i = gemm_i(m, n, k, bpe)
        if abs(i / ridge_value - 1) > CLEAR_OF_RIDGE:
            return m, n, k, i


@template("roofline.classify_kernel", topic="roofline", title="Memory- or compute-bound? (intensity given)",
          title_zh="访存受限还是算力受限？（给出算术强度）", difficulty=1, target_seconds=45)
def classify_kernel(rng):
    gpu, dtype = pick_card(rng, ("bf16", "fp16", "fp8"))
    peak, bw = gpu.peak(dtype), gpu.bandwidth
    r = ridge(peak, bw)
    intensity = _clear_intensity(rng, (0.25, 0.5, 1, 1.25, 2, 4, 8, 16, 32, 64, 100, 128, 200, 256, 400, 512, 1000,
                                       2048), r)
    return Spec(
        givens=card_givens(gpu, dtype) + (given("intensity", "Kernel arithmetic intensity", "算子的算术强度",
                                                intensity, "intensity", "FLOP/B"),),
        asks=(bound_ask(intensity, r,
                        f"{an(dtype, cap=True)} kernel has this arithmetic intensity on the {gpu.name}. A kernel is memory-bound "
                        "when I < I* = peak ÷ bandwidth. Is it memory-bound or compute-bound?",
                        f"一个 {dtype} 算子在 {gpu.name} 上的算术强度如上。I < I* = 峰值 ÷ 带宽 时为访存受限。它是哪一种？",
                        peak=peak, bandwidth=bw),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH, world=World(gpu=gpu, precision=dtype),
    )


@template("roofline.classify_gemm", topic="roofline", title="Is this GEMM memory- or compute-bound?",
          title_zh="这个 GEMM 是访存受限还是算力受限？", difficulty=2, target_seconds=120)
def classify_gemm(rng):
    gpu = hardware.draw(rng, hardware.GPUS)
    dtype = tensor_dtype(gpu, rng)
    peak, bw, bpe = gpu.peak(dtype), gpu.bandwidth, DTYPE_BYTES[dtype]
    r = ridge(peak, bw)
    m, n, k, i = _clear_gemm(rng, r, bpe)
    f = formulas.get("gemm_intensity")
    lead = tuple(f.solution(m=m, n=n, k=k, bytes_per_elem=bpe)) + tuple(
        formulas.get("ridge_point").solution(peak_flops=peak, bandwidth=bw))
    return Spec(
        givens=card_givens(gpu, dtype) + _gemm_givens(m, n, k),
        asks=(bound_ask(i, r, f"On the {gpu.name}, C = A·B runs in {dtype} with A M×K and B K×N. Is it memory-bound "
                              "or compute-bound?",
                        f"在 {gpu.name} 上以 {dtype} 计算 C = A·B，A 为 M×K，B 为 K×N。它是访存受限还是算力受限？",
                        peak=peak, bandwidth=bw, lead_en=lead, lead_zh=lead),),
        conventions_en=f"{CONV_EN} {GEMM_CONV_EN}", conventions_zh=f"{CONV_ZH}{GEMM_CONV_ZH}",
        world=World(gpu=gpu, precision=dtype),
    )


# --------------------------------------------------------------------------- #
# Decode GEMMs and batching (R§4.1)

# weight matrices of a layer: (name en, name zh, rows (k), cols (n)) as functions of the model
def _weight_matrix(rng, model: models.Model) -> tuple[str, str, int, int]:
    return rng.choice((
        ("FFN up-projection", "FFN 上投影", model.d_model, model.ffn),
        ("FFN down-projection", "FFN 下投影", model.ffn, model.d_model),
        ("attention output projection", "注意力输出投影", model.n_heads * model.d_head, model.d_model),
        ("query projection", "Q 投影", model.d_model, model.n_heads * model.d_head),
    ))


@template("roofline.decode_gemm_intensity", topic="roofline", title="Intensity of a decode GEMM at batch B",
          title_zh="Decode 阶段 batch 为 B 时 GEMM 的算术强度", difficulty=2, target_seconds=90)
def decode_gemm_intensity(rng):
    model = rng.choice(models.DENSE)
    what_en, what_zh, k, n = _weight_matrix(rng, model)
    batch = rng.choice((1, 2, 4, 8, 16, 32, 64, 128, 256))
    dtype = rng.choice(("bf16", "fp16", "fp8"))
    return Spec(
        givens=(given("model", "Model", "模型", model.name), given("m", "Batch B (tokens per step)", "batch B（每步 token 数）", batch),
                given("k", "Weight rows (input features)", "权重行数（输入维度）", k),
                given("n", "Weight columns (output features)", "权重列数（输出维度）", n), dtype_given(dtype),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="gemm_intensity", unit="FLOP/B",
                  prompt_en=f"During decode, {model.name}'s {what_en} multiplies the B×K activations of one step by "
                            f"the K×N weight matrix, all in {dtype}. What is the arithmetic intensity of this GEMM, in "
                            "FLOP/B?",
                  prompt_zh=f"Decode 阶段，{model.name} 的 {what_zh} 把一步的 B×K 激活乘以 K×N 权重矩阵，全部为 {dtype}。"
                            "这个 GEMM 的算术强度是多少（FLOP/B）？"),),
        conventions_en=GEMM_CONV_EN, conventions_zh=GEMM_CONV_ZH, world=World(model=model, precision=dtype),
    )


# (compute precision, weight storage, bytes per weight); "16" is bf16, or fp16 where the GPU has no bf16
CRITICAL_CASES = (("16", "16", 2), ("16", "int8 (weight-only)", 1), ("16", "int4 (weight-only)", 0.5),
                  ("fp8", "fp8", 1), ("fp32", "fp32", 4))


@template("roofline.critical_batch", topic="roofline", title="Decode batch where weight GEMMs turn compute-bound",
          title_zh="Decode 的 GEMM 转为算力受限的临界 batch", difficulty=2, target_seconds=90, source="R§4.1")
def critical_batch(rng):
    note_en = note_zh = ""
    if rng.random() < 0.2:
        row = rng.choice(SEED_TABLE)
        name, compute, peak, bw = f"{row.name} (cheat-sheet figures)", row.dtype, row.peak, row.bandwidth
        _, weights, bpe = rng.choice(CRITICAL_CASES[:3])
        weights = row.dtype if weights == "16" else weights
        note_en, note_zh = seed_row_note(row)
        gpu = hardware.get(row.gpu)
    else:
        gpu = hardware.draw(rng, hardware.GPUS)
        sixteen = "bf16" if gpu.supports("bf16") else "fp16"
        compute, weights, bpe = rng.choice([c for c in CRITICAL_CASES if c[0] == "16" or gpu.supports(c[0])])
        compute, weights = (sixteen if compute == "16" else compute), (sixteen if weights == "16" else weights)
        name, peak, bw = gpu.name, gpu.peak(compute), gpu.bandwidth
    name_zh = name.replace(" (cheat-sheet figures)", "（速查表数据）")
    return Spec(
        givens=(given("gpu", "GPU", "GPU", name, value_zh=name_zh),
                given("dtype", "Compute precision", "计算精度", compute), peak_given(peak, compute), bw_given(bw),
                given("weights", "Weight storage", "权重存储格式", weights,
                      value_zh=weights.replace(" (weight-only)", "（仅权重量化）")),
                given("bytes_per_elem", "Bytes per weight", "每个权重的字节数", bpe, "bytes")),
        asks=(Ask(formula="critical_batch", unit="",
                  prompt_en=f"Decoding streams every weight from HBM once per step and does 2 FLOPs per weight per "
                            f"sequence in the batch. On the {name}, from which batch size B do the weight GEMMs stop "
                            f"being memory-bound? (activations and KV reads ignored; B need not be an integer){note_en}",
                  prompt_zh=f"Decode 每一步把每个权重从显存读一次，batch 中每条序列对每个权重做 2 FLOPs。在 {name_zh} 上，"
                            f"batch 大小 B 达到多少时权重 GEMM 不再访存受限？（忽略激活与 KV 读取；B 不必是整数）{note_zh}"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(gpu=gpu, precision=compute, weights=weights.split()[0]),
    )


# --------------------------------------------------------------------------- #
# Chains


@template("roofline.chain_interview", topic="roofline", title="Interview chain: ridge → GEMM → bound → fix",
          title_zh="面试追问链：拐点 → GEMM 强度 → 瓶颈 → 优化方向", difficulty=2, target_seconds=240, source="R§5")
def chain_interview(rng):
    gpu = hardware.draw(rng, hardware.GPUS)
    dtype = tensor_dtype(gpu, rng)
    peak, bw, bpe = gpu.peak(dtype), gpu.bandwidth, DTYPE_BYTES[dtype]
    r = ridge(peak, bw)
    m, n, k, i = _clear_gemm(rng, r, bpe)
    return Spec(
        scenario_en=f"An interviewer hands you {an(gpu.name)} and {an(dtype)} GEMM C = A·B with A {m}×{k} and B {k}×{n}.",
        scenario_zh=f"面试官给你一张 {gpu.name} 和一个 {dtype} GEMM：C = A·B，A 为 {m}×{k}，B 为 {k}×{n}。",
        givens=card_givens(gpu, dtype) + _gemm_givens(m, n, k)
        + (given("bytes_per_elem", "Bytes per element", "每元素字节数", bpe, "bytes"),),
        asks=(
            Ask(formula="ridge_point", unit="FLOP/B", prompt_en=f"What is the ridge point of the {gpu.name} at {dtype}?",
                prompt_zh=f"{gpu.name} 在 {dtype} 下的拐点算术强度是多少（FLOP/B）？"),
            Ask(formula="gemm_intensity", unit="FLOP/B", prompt_en="What is the arithmetic intensity of this GEMM?",
                prompt_zh="这个 GEMM 的算术强度是多少（FLOP/B）？"),
            bound_ask(i, r, "So is the GEMM memory-bound or compute-bound?", "那么它是访存受限还是算力受限？",
                      peak=peak, bandwidth=bw),
            direction_ask(i, r, "What would you do about it?", "你会怎么优化？"),
        ),
        conventions_en=f"{CONV_EN} {GEMM_CONV_EN}", conventions_zh=f"{CONV_ZH}{GEMM_CONV_ZH}",
        world=World(gpu=gpu, precision=dtype),
    )


@template("roofline.chain_batching", topic="roofline", title="Chain: decode GEMM intensity vs batch size",
          title_zh="追问链：decode GEMM 强度随 batch 的变化", difficulty=2, target_seconds=300, source="R§4.1")
def chain_batching(rng):
    while True:  # served on one GPU: its weights fit there (question_bank.realism, "fits")
        gpu = hardware.draw(rng, hardware.GPUS)
        dtype = tensor_dtype(gpu, rng)
        peak, bw, bpe = gpu.peak(dtype), gpu.bandwidth, DTYPE_BYTES[dtype]
        model = rng.choice(models.DENSE)
        if model.params * bpe <= FIT_SHARE * gpu.memory:
            break
    what_en, what_zh, k, n = _weight_matrix(rng, model)
    batch = rng.choice((16, 32, 64, 128, 256, 512, 1024))
    crit = formulas.get("critical_batch").evaluate(peak_flops=peak, bandwidth=bw, bytes_per_elem=bpe)
    r = ridge(peak, bw)
    while abs(batch / crit - 1) < 0.2 or abs(gemm_i(batch, n, k, bpe) / r - 1) < 0.1:
        batch *= 2
    i_b = gemm_i(batch, n, k, bpe)
    return Spec(
        scenario_en=f"{model.name} is served on {an(gpu.name)} in {dtype}. Look at its {what_en}: {an(f'{k}×{n}')} weight "
                    "matrix multiplied by the activations of the sequences decoded together.",
        scenario_zh=f"{model.name} 在 {gpu.name} 上以 {dtype} 推理。看它的 {what_zh}：{k}×{n} 的权重矩阵乘以同一步一起 "
                    "decode 的各序列的激活。",
        givens=card_givens(gpu, dtype) + (given("k", "K (weight rows)", "K（权重行数）", k),
                                          given("n", "N (weight columns)", "N（权重列数）", n),
                                          given("bytes_per_elem", "Bytes per element", "每元素字节数", bpe, "bytes"),
                                          given("batch", "Batch B in step 4", "第 4 问的 batch B", batch)),
        asks=(
            Ask(formula="gemm_intensity", unit="FLOP/B", inputs={"m": 1, "n": n, "k": k, "bytes_per_elem": bpe},
                prompt_en="At batch 1 (a GEMV), what is the arithmetic intensity of this GEMM?",
                prompt_zh="batch 为 1（即 GEMV）时，这个 GEMM 的算术强度是多少（FLOP/B）？"),
            Ask(formula="attainable_flops", unit="TFLOPS",
                inputs={"intensity": Ref(0), "peak_flops": peak, "bandwidth": bw},
                prompt_en="What FLOP/s can it reach at most at batch 1, by the roofline?",
                prompt_zh="按 Roofline，batch 为 1 时它最多能达到多少 TFLOPS？",
                roofline={"peak_flops": peak, "bandwidth": bw, "intensity": gemm_i(1, n, k, bpe)}),
            Ask(formula="critical_batch", unit="",
                prompt_en="Roughly from which batch size do such weight GEMMs become compute-bound (ridge × bytes ÷ 2)?",
                prompt_zh="大约从多大的 batch 起，这类权重 GEMM 变为算力受限（拐点 × 字节数 ÷ 2）？"),
            bound_ask(i_b, r, f"At batch B = {batch}, is this GEMM memory-bound or compute-bound?",
                      f"batch B = {batch} 时，这个 GEMM 是访存受限还是算力受限？", peak=peak, bandwidth=bw,
                      lead_en=tuple(formulas.get("gemm_intensity").solution(m=batch, n=n, k=k, bytes_per_elem=bpe)),
                      lead_zh=tuple(formulas.get("gemm_intensity").solution(m=batch, n=n, k=k, bytes_per_elem=bpe))),
        ),
        conventions_en=f"{CONV_EN} {GEMM_CONV_EN}", conventions_zh=f"{CONV_ZH}{GEMM_CONV_ZH}",
        world=World(model=model, gpu=gpu, precision=dtype, holds=("weights",)),
    )
