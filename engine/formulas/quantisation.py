"""Weight quantisation: bits per weight with group scales and zero points, the bytes of quantised
weights, and what quantising buys a memory-bound decode.

GPTQ/AWQ-style group quantisation; the misconception they share is forgetting the group's scale.
"""

from __future__ import annotations

from .core import Formula, Misconception, Part
from .inputs import (
    BITS_AFTER,
    BITS_BEFORE,
    BITS_PER_WEIGHT,
    GROUP_SIZE,
    KV_BYTES_DECODE_STEP,
    PHI,
    QUANT_BITS,
    SCALE_BITS,
    WEIGHT_BYTES_FULL,
    ZERO_BITS,
)
from .registry import register

# forgetting the group's scale (and zero point) of group quantisation: the bare bit width (named, and
# graded wrong - the templates' tolerance is tighter than the overhead)
GROUP_SCALE = ("forgot the group scale (and zero point): used the bare bit width",
               "漏了分组的缩放因子（和零点）：只用了裸位宽")
# The block formats as presets of quant_bits_per_weight (bits, group size, scale bits, zero bits): no formula of their
# own.  NVFP4 also keeps one fp32 scale per tensor, negligible per weight.  Templates draw them from here.
QUANT_PRESETS: dict[str, tuple[int, int, int, int]] = {
    "MXFP4": (4, 32, 8, 0),  # OCP MX v1.0: E8M0 scale per 32 -> 4.25 bits
    "NVFP4": (4, 16, 8, 0),  # E4M3 scale per 16 -> 4.5 bits
    "MXFP8": (8, 32, 8, 0),  # -> 8.25 bits
}


register(
    Formula("quant_bits_per_weight", (QUANT_BITS, GROUP_SIZE, SCALE_BITS, ZERO_BITS),
            "bits + (scale_bits + zero_bits)/group_size", "bits",
            "effective bits per weight of group quantisation: the weight's own bits plus its share of the "
            "group's scale and zero point",
            "frantar2022, lin2023, ocp_mx, nvfp4",
            (Misconception("no_metadata", GROUP_SCALE[0], "bits", GROUP_SCALE[1]),
             Misconception("metadata_per_weight", "stored a scale for every weight instead of every group",
                           "bits + scale_bits + zero_bits", "给每个权重都存了一个缩放因子，而不是每组一个"),
             Misconception("mx_block", "used the MX block of 32 where the blocks are smaller (NVFP4's are 16)",
                           "bits + (scale_bits + zero_bits)/32", "在分块更小的格式上用了 MX 的 32 个一块（NVFP4 是 16 个一块）")),
            "bits/weight",
            decomposition=("each weight stores its own b bits; every group of g weights shares one scale (b_scale "
                           "bits) and, if asymmetric, one zero point (b_zero bits), so each weight carries 1/g of "
                           "them",),
            decomposition_zh=("每个权重自己占 b 位；每 g 个权重共享一个缩放因子（b_scale 位），非对称量化时还共享一个零点"
                              "（b_zero 位），所以每个权重分摊其中的 1/g",),
            parts=(Part("group_share", "b_group", "(scale_bits + zero_bits)/group_size", "bits",
                        "the group's scale and zero point, per weight", "分摊到每个权重的缩放因子与零点"),),
            via="bits + group_share",
            simplification=("the overhead is (b_scale + b_zero) / g = {group_share} per weight: halving g doubles it "
                            "(smaller groups are more accurate and cost more bits)",),
            simplification_zh=("开销是 (b_scale + b_zero) / g = 每个权重 {group_share}：g 减半，开销翻倍（组越小越准，"
                               "位数也越多）",),
            takeaway="each weight takes {result}, not {bits}: the group's scale (and zero point) is part of the model's "
                     "memory and of every byte a decode step reads.",
            takeaway_zh="每个权重实际占 {result}，不是 {bits}：分组的缩放因子（和零点）也算在模型显存里，也是每个 decode "
                        "步都要读的字节。",
            example={"bits": 4, "group_size": 128, "scale_bits": 16, "zero_bits": 0},
            meaning_zh="分组量化下每个权重的有效位数：权重自身的位数，加上分摊到它身上的分组缩放因子与零点"),
    # bits per weight are plain numbers here (÷ 8 makes bytes): as a "bits" quantity a unit expression would already
    # read 4.125 bit as 0.516 B, and the ÷ 8 would count twice
    Formula("quant_weights_bytes", (PHI, BITS_PER_WEIGHT),
            "phi*bits_per_weight/8", "bytes",
            "memory of quantised weights: Φ × bits per weight / 8 (bits per weight include the group overhead)",
            "frantar2022, lin2023",
            (Misconception("no_group_overhead", GROUP_SCALE[0], "phi*bits/8", GROUP_SCALE[1]),
             Misconception("bits_as_bytes", "used bits as bytes (forgot ÷ 8)", "phi*bits_per_weight",
                           "把比特当成了字节（漏了 ÷ 8）")),
            "M_q",
            decomposition=("each of the Φ weights is stored in `bits` bits, its own bits plus its share of the "
                           "group's scale and zero point; 8 bits make a byte",),
            decomposition_zh=("Φ 个权重每个占 bits 位（自身的位数加上分摊到它身上的分组缩放因子与零点）；8 位为 1 字节",),
            parts=(Part("bytes_weight", "bytes/weight", "bits_per_weight/8", "bytes", "one weight, scales included",
                        "一个权重，含缩放因子"),),
            via="phi*bytes_weight",
            simplification=("in round numbers each billion parameters takes bits ÷ 8 GB: 2 GB in bf16, 1 GB in "
                            "int8, 0.5 GB at 4 bits, a little more once the group scales are counted",),
            simplification_zh=("粗算：每十亿个参数占（位数 ÷ 8）GB：bf16 为 2 GB，int8 为 1 GB，4 位为 0.5 GB，"
                               "算上分组缩放因子还要再多一点",),
            takeaway="Φ × effective bits ÷ 8 = {result}: count the group scales (4-bit weights with an fp16 scale "
                     "per 128 take 4.125 bits, about 3.9× smaller than bf16, not 4×).",
            takeaway_zh="Φ × 有效位数 ÷ 8 = {result}：分组缩放因子要算进去（4 位权重、每 128 个一个 fp16 缩放因子就是 "
                        "4.125 位，只有 bf16 的约 1/3.9，而不是 1/4）。",
            example={"phi": 7e10, "bits_per_weight": 4.125},
            meaning_zh="量化后权重的显存：Φ × 每权重位数 ÷ 8（每权重位数已含分组开销）"),
    Formula("quant_decode_speedup", (BITS_BEFORE, BITS_AFTER, WEIGHT_BYTES_FULL, KV_BYTES_DECODE_STEP),
            "(weight_bytes + kv_bytes)/(weight_bytes*bits_after/bits_before + kv_bytes)", "ratio",
            "memory-bound decode speed-up from quantising the weights only: the step reads W + KV, and only W shrinks "
            "(by b_q / b_0)",
            "pope2022, lin2023",
            (Misconception("no_kv", "ignored the KV cache reads", "bits_before/bits_after", "忽略了 KV Cache 的读取"),
             # next to a large KV read the scales are negligible: within tolerance it is an approximation
             Misconception("no_group_overhead_decode", GROUP_SCALE[0],
                           "(weight_bytes + kv_bytes)/(weight_bytes*bits/bits_before + kv_bytes)", GROUP_SCALE[1])),
            "speed-up",
            decomposition=("a memory-bound decode step takes bytes read ÷ bandwidth: it reads the weights W and the "
                           "KV cache KV; quantising shrinks only W, by b_q / b_0, so the speed-up is bytes before ÷ "
                           "bytes after (the bandwidth cancels)",),
            decomposition_zh=("访存受限的 decode 步耗时 = 读取的字节 ÷ 带宽：每步读权重 W 和 KV Cache；量化只让 W 缩小为 "
                              "b_q / b_0，所以加速比 = 量化前读取的字节 ÷ 量化后读取的字节（带宽约掉）",),
            parts=(Part("read_0", "read_0", "weight_bytes + kv_bytes", "bytes", "bytes read per step before",
                        "量化前每步读取的字节"),
                   Part("w_q", "W_q", "weight_bytes*bits_after/bits_before", "bytes", "the quantised weights",
                        "量化后的权重"),
                   Part("read_q", "read_q", "w_q + kv_bytes", "bytes", "bytes read per step after",
                        "量化后每步读取的字节"),
                   Part("ceiling", "b_0 / b_q", "bits_before/bits_after", "count",
                        "the speed-up with no KV reads", "没有 KV 读取时的加速比")),
            via="read_0/read_q",
            simplification=("limits: with no KV reads (batch 1, short context) the speed-up is the bit ratio b_0 / b_q "
                            "= {ceiling}; as batch × context grows the bf16 KV reads dominate and it falls toward 1",),
            simplification_zh=("极限：没有 KV 读取时（batch 1、短上下文）加速比就是位数之比 b_0 / b_q = {ceiling}；batch × "
                                "上下文越大，bf16 的 KV 读取占比越高，加速比越接近 1",),
            takeaway="weight-only quantisation speeds decode up by the bytes it saves ({read_0} → {read_q} per step), "
                     "not by the bit ratio: the scales cost a little and the KV cache is still read in full.",
            takeaway_zh="仅量化权重时，decode 的加速来自省下的字节（每步 {read_0} → {read_q}），而不是位数之比：缩放因子要占一点，"
                        "KV Cache 仍然整份读取。",
            example={"bits_before": 16, "bits_after": 4.125, "weight_bytes": 1.4e11, "kv_bytes": 1e10},
            meaning_zh="仅量化权重带来的访存受限 decode 加速比：每步读 W + KV，只有 W 缩小（按 b_q / b_0）"),
)
