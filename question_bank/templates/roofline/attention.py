"""Roofline templates beyond the GEMM: attention, FlashAttention's IO, kernel fusion.

Roofline templates beyond the GEMM (R§3.3, R§4.3, R§5.1, R§5.2): attention's HBM traffic and intensity
against sequence length, FlashAttention's IO, the traffic kernel fusion saves, and a layer looked at op by op.

Conventions are stated in every problem.  Standard attention follows FlashAttention's Algorithm 0 (S = QKᵀ
written to HBM and read back, P = softmax(S) written and read back); FlashAttention follows the
FlashAttention-2 loop order (a Q block stays on chip, K and V stream past it once per Q block), so its
traffic depends on the SRAM size as Theorem 2 says (Θ(N²d²/M)).  Neither counts L2 hits: the figures are the
HBM traffic a kernel would cause with no cache between SRAM and HBM.
"""

from __future__ import annotations

from engine import formulas
from engine.count_nouns import Noun
from engine.records import replace
from engine.units import fmt_number, fmt_quantity, round_sig

from ... import hardware, kit, models
from ...hardware import DTYPE_BYTES
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH, FIT_SHARE, an, card_givens, ridge
from ..roofline.kernels import COUNT_UNITS_EN, COUNT_UNITS_ZH, bound_ask

MB_EN = "MB = 1e6 B, KiB = 1024 B."
MB_ZH = "MB = 1e6 B，KiB = 1024 B。"

STD_CONV_EN = ("Standard attention, one head of one sequence (FlashAttention's Algorithm 0): read Q and K, write "
               "S = QKᵀ (N×N) to HBM; read S, write P = softmax(S); read P and V, write O. Q, K, V, O are N×d; "
               "every matrix is stored in the given precision; masking and dropout are ignored.")
STD_CONV_ZH = ("标准注意力，单个序列的单个头（FlashAttention 论文的 Algorithm 0）：读 Q、K，把 S = QKᵀ（N×N）写回显存；"
               "读 S，写 P = softmax(S)；读 P 和 V，写 O。Q、K、V、O 都是 N×d；所有矩阵都按给定精度存储；忽略 mask 和 dropout。")
FLASH_CONV_EN = ("FlashAttention (forward, one head, FlashAttention-2 loop order): a block of B rows of Q fills half of "
                 "the SRAM (the other half holds the K and V tiles streamed past it), so B = SRAM ÷ (2 × d × bytes); Q is "
                 "read once and O written once; all of K and V is read once per Q block (N ÷ B times); the O accumulator "
                 "and the softmax statistics stay on chip; no L2 cache hits are counted.")
FLASH_CONV_ZH = ("FlashAttention（前向、单个头、FlashAttention-2 的循环顺序）：B 行的 Q 块占一半 SRAM（另一半放流过的 K、V 分块），"
                 "所以 B = SRAM ÷ (2 × d × 字节数)；Q 只读一次、O 只写一次；每个 Q 块都要把整个 K 和 V 读一遍（共 N ÷ B 次）；"
                 "O 的累加器和 softmax 统计量留在片上；不计 L2 缓存命中。")
ATTN_FLOPS_EN = "Attention FLOPs for one head: 4 × N² × d (QKᵀ and PV, 2 FLOPs per multiply-add; softmax ignored)."
ATTN_FLOPS_ZH = "单个头的注意力 FLOPs：4 × N² × d（QKᵀ 与 PV，一次乘加计 2 FLOPs；忽略 softmax）。"


def _attention_model(rng) -> models.Model:
    """A model with standard multi-head attention heads (d_head 64 or 128)."""
    return rng.choice(models.MODELS)


def _seq(rng, m: models.Model, low: int = 512) -> int:
    return rng.choice([s for s in (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072) if low <= s <= m.max_seq])


def _and_a_half(rng, m: models.Model, n: int, block: int = 1) -> int:
    """``n``, or a third of the time 1.5 × ``n`` (3,072, 12,288, ...: contexts between the powers of two) where the
    model holds it and a FlashAttention block divides it.  Drawn last, so the other draws of a seed stay as they
    were and only the seeds it picks change."""
    wider = 3 * n // 2
    return wider if rng.random() < 1 / 3 and wider <= m.max_seq and wider % block == 0 else n


def _fitting_gpus(m: models.Model, dtype: str) -> list:
    """GPUs with ``dtype`` math on which the model's weights fit (a scenario that runs it there)."""
    return [g for g in hardware.GPUS if g.supports(dtype) and m.params * DTYPE_BYTES[dtype] <= FIT_SHARE * g.memory]


def _attn_givens(m: models.Model, n: int, dtype: str):
    return (given("model", "Model", "模型", m.name), given("n", "Sequence length N", "序列长度 N", n),
            kit.model(m, "d_head", name="d", label=("Head dimension d", "每头维度 d")),
            given("dtype", "Precision", "精度", dtype),
            given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes"))


@template("roofline.attention_hbm_standard", topic="roofline", title="HBM traffic of standard attention",
          title_zh="标准注意力的显存访存量", difficulty=2, target_seconds=120, source="R§4.3, dao2022")
def attention_hbm_standard(rng):
    m = _attention_model(rng)
    n, dtype = _seq(rng, m), rng.choice(("bf16", "fp16", "fp32"))
    return Spec(
        givens=_attn_givens(m, n, dtype),
        asks=(Ask(formula="attention_hbm_bytes", unit="MB",
                  prompt_en=f"How many bytes does standard attention move between HBM and the chip for one head of "
                            f"{m.name} at N = {n:,} tokens in {dtype}, in MB?",
                  prompt_zh=f"{m.name} 的一个头在 N = {n:,} 个 token、{dtype} 下，标准注意力在显存与芯片之间搬运多少字节（MB）？"),),
        conventions_en=f"{STD_CONV_EN} {MB_EN}", conventions_zh=f"{STD_CONV_ZH}{MB_ZH}", world=World(model=m, seq=n),
    )


# SRAM given to the tiles (KiB): FlashAttention-2's forward tiles use 32-128 KiB of the 164 KiB (A100) or
# 228 KiB (H100) of shared memory per SM; B = SRAM / (2 d bytes) is then 64-512 rows, at least d.
SRAM_KIB = (32, 64, 96, 128)


def _flash_setup(rng):
    while True:
        m = _attention_model(rng)
        dtype = rng.choice(("bf16", "fp16"))
        sram = rng.choice(SRAM_KIB) * 1024
        block = sram / (2 * m.d_head * DTYPE_BYTES[dtype])
        n = _seq(rng, m, 1024)
        if block == int(block) and block >= m.d_head and n % block == 0:
            return m, dtype, sram, int(block), n


@template("roofline.flash_attention_hbm", topic="roofline", title="HBM traffic of FlashAttention for an SRAM size",
          title_zh="给定 SRAM 大小时 FlashAttention 的显存访存量", difficulty=3, target_seconds=150,
          source="R§4.3, dao2022, dao2023")
def flash_attention_hbm(rng):
    m, dtype, sram, block, n = _flash_setup(rng)
    n = _and_a_half(rng, m, n, block)
    return Spec(
        givens=_attn_givens(m, n, dtype) + (given("sram_bytes", "SRAM for the tiles", "用于分块的 SRAM", sram,
                                                  "bytes", "KiB"),),
        asks=(Ask(formula="flash_attention_hbm_bytes", unit="MB",
                  prompt_en=f"How many bytes does FlashAttention move between HBM and the chip for one head of "
                            f"{m.name} at N = {n:,} tokens in {dtype}, with this much SRAM for its tiles, in MB?",
                  prompt_zh=f"{m.name} 的一个头在 N = {n:,} 个 token、{dtype} 下，FlashAttention 用这么多 SRAM 做分块时，"
                            "在显存与芯片之间搬运多少字节（MB）？"),),
        conventions_en=f"{FLASH_CONV_EN} {MB_EN}", conventions_zh=f"{FLASH_CONV_ZH}{MB_ZH}", world=World(model=m, seq=n),
    )


@template("roofline.attention_intensity", topic="roofline", title="Attention intensity against sequence length",
          title_zh="注意力的算术强度随序列长度的变化", difficulty=2, target_seconds=90, source="R§4.3, dao2022")
def attention_intensity(rng):
    m = _attention_model(rng)
    n, dtype = _seq(rng, m), rng.choice(("bf16", "fp16", "fp32"))
    n = _and_a_half(rng, m, n)
    return Spec(
        givens=_attn_givens(m, n, dtype),
        asks=(Ask(formula="attention_intensity", unit="FLOP/B",
                  prompt_en=f"What is the arithmetic intensity of standard attention for one head of {m.name} at "
                            f"N = {n:,} tokens in {dtype}, in FLOP/B? (FLOPs over the HBM traffic of the convention "
                            "below; simplify before you compute)",
                  prompt_zh=f"{m.name} 的一个头在 N = {n:,} 个 token、{dtype} 下，标准注意力的算术强度是多少（FLOP/B）？"
                            "（FLOPs 除以下述约定的显存访存量；先化简再计算）"),),
        conventions_en=f"{ATTN_FLOPS_EN} {STD_CONV_EN}", conventions_zh=f"{ATTN_FLOPS_ZH}{STD_CONV_ZH}",
        world=World(model=m, seq=n),
    )


BOUND_ATTENTION_EN = ("I < I*: standard attention waits on HBM, not on the tensor cores, because the N×N scores make "
                      "two round trips through it; more FLOP/s will not help, fewer bytes (FlashAttention) will.")
BOUND_ATTENTION_ZH = ("I < I*：标准注意力在等显存而不是等 Tensor Core，因为 N×N 的注意力分数要在显存里往返两次；"
                      "算力更高的卡没用，减少字节数（FlashAttention）才有用。")
VERSUS_STD_EN = ("against standard attention (step 1): {std} ÷ {result} = {times} times less traffic for the same "
                 "attention",)
VERSUS_STD_ZH = ("和第 1 步的标准注意力相比：{std} ÷ {result} = {times}，同样的注意力计算，标准实现的访存量是它的 {times} 倍",)
FLASH_CHAIN_TAKEAWAY_EN = ("standard attention is memory-bound at long N because it round-trips the N×N scores through "
                           "HBM; FlashAttention never writes them ({result} instead of {std}), which is why it is "
                           "faster although it does more FLOPs (online-softmax rescaling, recomputation in the backward "
                           "pass).")
FLASH_CHAIN_TAKEAWAY_ZH = ("标准注意力在长序列下访存受限，是因为 N×N 的注意力分数要在显存里往返；FlashAttention 从不把它们"
                           "写回显存（{result}，而不是 {std}），所以虽然多做了计算（online softmax 的重新缩放、反向传播里的"
                           "重计算），反而更快。")


@template("roofline.chain_flash_attention", topic="roofline",
          title="Chain: standard vs FlashAttention traffic",
          title_zh="追问链：标准注意力访存量 → 算术强度 → 瓶颈 → FlashAttention 访存量", difficulty=3,
          target_seconds=420, source="R§4.3, R§5.1, dao2022, dao2023")
def chain_flash_attention(rng):
    while True:  # served on one GPU: the weights fit there
        m, dtype, sram, block, n = _flash_setup(rng)
        if _fitting_gpus(m, dtype):
            break
    gpu = rng.choice(_fitting_gpus(m, dtype))
    n = _and_a_half(rng, m, n, block)
    peak, bw, bpe = gpu.peak(dtype), gpu.bandwidth, DTYPE_BYTES[dtype]
    i_std = formulas.get("attention_intensity").evaluate(n=n, d=m.d_head, bytes_per_elem=bpe)
    r = ridge(peak, bw)
    flash = formulas.get("flash_attention_hbm_bytes")
    std_bytes = formulas.get("attention_hbm_bytes").evaluate(n=n, d=m.d_head, bytes_per_elem=bpe)
    flash_bytes = flash.evaluate(n=n, d=m.d_head, sram_bytes=sram, bytes_per_elem=bpe)
    versus = {"std": fmt_quantity(std_bytes, "bytes"), "times": fmt_number(std_bytes / flash_bytes)}
    bound = bound_ask(i_std, r, f"On the {gpu.name} at {dtype}, is standard attention memory-bound or compute-bound "
                                "here?",
                      f"在 {gpu.name}（{dtype}）上，这里的标准注意力是访存受限还是算力受限？", peak=peak, bandwidth=bw)
    if bound.answer == "memory-bound":  # always, at d / bytes <= 64 FLOP/B (see below)
        bound = replace(bound, takeaway=BOUND_ATTENTION_EN, takeaway_zh=BOUND_ATTENTION_ZH)
    return Spec(
        scenario_en=f"Long-context serving of {m.name} on {an(gpu.name)} in {dtype}: why does FlashAttention help? "
                    f"Look at one head at N = {n:,} tokens.",
        scenario_zh=f"在 {gpu.name} 上以 {dtype} 做 {m.name} 的长上下文推理：FlashAttention 为什么有效？看 N = {n:,} 个 token "
                    "时的一个头。",
        givens=card_givens(gpu, dtype) + tuple(g for g in _attn_givens(m, n, dtype) if g.name != "dtype") + (
            given("sram_bytes", "SRAM for FlashAttention's tiles", "FlashAttention 分块用的 SRAM", sram, "bytes", "KiB"),),
        asks=(
            Ask(formula="attention_hbm_bytes", unit="MB",
                prompt_en="How many bytes does standard attention move to and from HBM for this head, in MB?",
                prompt_zh="标准注意力在这个头上与显存之间搬运多少字节（MB）？"),
            Ask(formula="attention_intensity", unit="FLOP/B",
                prompt_en="What is its arithmetic intensity (4N²d FLOPs over that traffic), in FLOP/B?",
                prompt_zh="它的算术强度（4N²d FLOPs 除以上面的访存量）是多少（FLOP/B）？"),
            bound,
            Ask(formula="flash_attention_hbm_bytes", unit="MB", extras=versus,
                simplification=flash.simplification + VERSUS_STD_EN,
                simplification_zh=flash.simplification_zh + VERSUS_STD_ZH,
                takeaway=FLASH_CHAIN_TAKEAWAY_EN, takeaway_zh=FLASH_CHAIN_TAKEAWAY_ZH,
                prompt_en="FlashAttention never writes S or P to HBM. How many bytes does it move for this head, in MB?",
                prompt_zh="FlashAttention 从不把 S、P 写回显存。它在这个头上搬运多少字节（MB）？"),
        ),
        conventions_en=f"{CONV_EN} {ATTN_FLOPS_EN} {STD_CONV_EN} {FLASH_CONV_EN} {MB_EN}",
        conventions_zh=f"{CONV_ZH}{ATTN_FLOPS_ZH}{STD_CONV_ZH}{FLASH_CONV_ZH}{MB_ZH}",
        world=World(model=m, gpu=gpu, precision=dtype, seq=n, holds=("weights",)),
    )  # I < d / bytes <= 128 / 2 = 64 FLOP/B, below every catalogue ridge: always memory-bound, as R§4.3 warns


# --------------------------------------------------------------------------- #
# Kernel fusion (R§3.3, R§5.2)

# one-input element-wise ops: (en, zh, FLOPs per element as counted here)
POINTWISE = (("multiply by a constant", "乘以常数", 1), ("add a constant", "加常数", 1), ("ReLU", "ReLU", 1),
             ("GELU (tanh form, 8 FLOPs)", "GELU（tanh 近似，8 FLOPs）", 8), ("SiLU (4 FLOPs)", "SiLU（4 FLOPs）", 4),
             ("clamp to a range (2 FLOPs)", "截断到区间（2 FLOPs）", 2))

FUSION_CONV_EN = ("Each unfused kernel reads its one input tensor from HBM and writes its output tensor back; the fused "
                  "kernel reads the input once and writes the final result once; constants cost no traffic.")
FUSION_CONV_ZH = "未融合时每个 kernel 从显存读一个输入张量、再把输出张量写回；融合后的 kernel 只读一次输入、写一次最终结果；常数不计访存。"


def _pointwise_for(m: models.Model) -> list:
    """The element-wise ops a profile of this model can show: its own activation (SiLU for a gated MLP, GELU
    otherwise; no ReLU in the catalogue's models) and the generic scale / shift / clamp."""
    own = "SiLU" if m.gated else "GELU"
    return [o for o in POINTWISE if o[0].split()[0] not in ("ReLU", "GELU", "SiLU") or o[0].startswith(own)]


def _fusion_kernels(ops) -> tuple[str, ...]:
    return tuple(o[0].split()[0] for o in ops if o[0].split()[0] in ("GELU", "SiLU"))


def _fusion_setup(rng):
    m = rng.choice(models.DENSE)
    tokens = rng.choice((1024, 2048, 4096, 8192, 16384))
    pool = _pointwise_for(m)
    ops = rng.sample(pool, rng.choice([k for k in (2, 3, 4, 5) if k <= len(pool)]))
    dtype = rng.choice(("bf16", "fp16", "fp32"))
    return m, tokens, ops, dtype


def _fusion_givens(m, tokens, ops, dtype):
    return (given("ops", "Kernels, in order", "依次执行的 kernel", " → ".join(o[0] for o in ops),
                  value_zh=" → ".join(o[1] for o in ops)),
            given("kernels", "Kernels k", "kernel 数 k", len(ops)),
            given("shape", "Tensor (tokens × hidden)", "张量（token 数 × 隐藏维度）", f"{tokens:,} × {m.d_model:,}"),
            given("n_elem", "Elements n", "元素数 n", tokens * m.d_model),
            given("dtype", "Precision", "精度", dtype),
            given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes"))


@template("roofline.fusion_bytes_saved", topic="roofline", title="HBM traffic saved by fusing element-wise kernels",
          title_zh="融合逐元素 kernel 省下的显存访存量", difficulty=2, target_seconds=90, source="R§3.3, R§5.2")
def fusion_bytes_saved(rng):
    m, tokens, ops, dtype = _fusion_setup(rng)
    return Spec(
        givens=_fusion_givens(m, tokens, ops, dtype),
        asks=(Ask(formula="fusion_bytes_saved", unit="MB",
                  prompt_en=f"On {m.name}'s hidden states these {len(ops)} element-wise kernels run one after another. "
                            "How many bytes of HBM traffic does fusing them into one kernel save, in MB?",
                  prompt_zh=f"在 {m.name} 的隐藏状态上依次运行这 {len(ops)} 个逐元素 kernel。把它们融合成一个 kernel，"
                            "能省下多少显存访存量（MB）？"),),
        conventions_en=f"{FUSION_CONV_EN} MB = 1e6 B.", conventions_zh=f"{FUSION_CONV_ZH}MB = 1e6 B。",
        world=World(model=m, kernels=_fusion_kernels(ops)),
    )


FUSED_TIME_EN = ("the fusion saves {result} on every call of this chain: time in which the GPU only moved intermediate "
                 "tensors through HBM, with its math units idle.")
FUSED_TIME_ZH = "融合后这串 kernel 每调用一次省下 {result}：这段时间 GPU 只是在显存里搬中间结果，计算单元闲着。"
FUSED_INTENSITY_EN = ("fusion keeps the FLOPs and cuts the bytes from 2k passes to 2, so the intensity rises k-fold, "
                      "yet a few FLOPs per element is still only {result}.")
FUSED_INTENSITY_ZH = "融合不改变 FLOPs，把字节数从 2k 遍降到 2 遍，算术强度提高 k 倍，但每元素只有几次运算，仍只有 {result}。"
FUSED_BOUND_EN = ("fusion does not change the verdict: the fused kernel is still memory-bound and faster only because it "
                  "moves 1/k of the bytes; further gains come from moving fewer bytes again (fuse it into the "
                  "neighbouring GEMM, a lower precision).")
FUSED_BOUND_ZH = ("融合没有改变结论：融合后的 kernel 仍是访存受限，变快只是因为只搬 1/k 的字节；要再提速还得继续减少字节"
                  "（融进相邻 GEMM 的 epilogue、降低精度）。")


@template("roofline.chain_fusion", topic="roofline",
          title="Chain: fusion: bytes → time → intensity → bound",
          title_zh="追问链：融合省下的访存 → 省下的时间 → 融合后的强度 → 仍是访存受限？", difficulty=2,
          target_seconds=300, source="R§3.3, R§5.1, R§5.2")
def chain_fusion(rng):
    while True:  # profiled on one GPU: the weights fit there
        m, tokens, ops, dtype = _fusion_setup(rng)
        while dtype == "fp32":
            dtype = rng.choice(("bf16", "fp16"))
        if _fitting_gpus(m, dtype):
            break
    gpu = rng.choice(_fitting_gpus(m, dtype))
    peak, bw, bpe = gpu.peak(dtype), gpu.bandwidth, DTYPE_BYTES[dtype]
    n = tokens * m.d_model
    flops_per = sum(o[2] for o in ops)
    flops, nbytes = n * flops_per, 2 * n * bpe
    i_fused = flops / nbytes
    bound = bound_ask(i_fused, ridge(peak, bw), f"Is the fused kernel memory-bound or compute-bound on the {gpu.name}?",
                      f"融合后的 kernel 在 {gpu.name} 上是访存受限还是算力受限？", peak=peak, bandwidth=bw)
    if bound.answer == "memory-bound":  # always: a few FLOPs per element over 2 × bytes, far below every ridge
        bound = replace(bound, takeaway=FUSED_BOUND_EN, takeaway_zh=FUSED_BOUND_ZH)
    return Spec(
        scenario_en=f"A profile of {m.name} on {an(gpu.name)} shows {len(ops)} element-wise kernels in a row on the "
                    f"{tokens:,} × {m.d_model:,} hidden states. You fuse them.",
        scenario_zh=f"{m.name} 在 {gpu.name} 上的性能剖析显示，{tokens:,} × {m.d_model:,} 的隐藏状态上连着跑了 {len(ops)} 个"
                    "逐元素 kernel。你把它们融合起来。",
        givens=card_givens(gpu, dtype) + tuple(g for g in _fusion_givens(m, tokens, ops, dtype) if g.name != "dtype")
        + (given("flops_per_elem", "FLOPs per element, all kernels", "所有 kernel 合计的每元素 FLOPs", flops_per),),
        asks=(
            Ask(formula="fusion_bytes_saved", unit="MB",
                prompt_en="How many bytes of HBM traffic does the fusion save, in MB?",
                prompt_zh="融合省下了多少显存访存量（MB）？"),
            Ask(formula="hbm_time", unit="µs", inputs={"bytes": Ref(0), "bandwidth": bw},
                takeaway=FUSED_TIME_EN, takeaway_zh=FUSED_TIME_ZH,
                prompt_en="These kernels are memory-bound: how much time does that traffic take at the full memory "
                          "bandwidth, in µs?",
                prompt_zh="这些 kernel 都是访存受限：按满显存带宽，这部分访存要花多少时间（µs）？"),
            Ask(formula="arithmetic_intensity", unit="FLOP/B", inputs={"flops": flops, "bytes": nbytes},
                explanation=(f"FLOPs = n × {flops_per} = {fmt_number(flops)}; bytes = n × 2 (read once, write once) × "
                             f"{bpe:g} B = {fmt_number(nbytes)} B",),
                explanation_zh=(f"FLOPs = n × {flops_per} = {fmt_number(flops)}；字节数 = n × 2（读一次、写一次）× "
                                f"{bpe:g} B = {fmt_number(nbytes)} B",),
                takeaway=FUSED_INTENSITY_EN, takeaway_zh=FUSED_INTENSITY_ZH,
                prompt_en="What is the arithmetic intensity of the fused kernel, in FLOP/B?",
                prompt_zh="融合后的 kernel 的算术强度是多少（FLOP/B）？"),
            bound,
        ),
        conventions_en=f"{CONV_EN} {FUSION_CONV_EN} MB = 1e6 B, 1 µs = 1e-6 s.",
        conventions_zh=f"{CONV_ZH}{FUSION_CONV_ZH}MB = 1e6 B，1 µs = 1e-6 s。",
        world=World(model=m, gpu=gpu, precision=dtype, holds=("weights",), kernels=_fusion_kernels(ops)),
    )


# --------------------------------------------------------------------------- #
# A layer, op by op (R§5.1)

LAYER_CONV_EN = ("Prefill of T tokens through one Llama-style layer, every tensor in bf16 (2 B), every op a separate "
                 "kernel reading its inputs from HBM and writing its outputs back; attention is a FlashAttention "
                 "kernel (Q, K, V read once, O written once) without the causal saving. The table gives each op "
                 "group's FLOPs and HBM bytes, rounded to 3 significant figures.")
LAYER_CONV_ZH = ("T 个 token 的 prefill 经过一层 Llama 式的层，所有张量都是 bf16（2 B），每个算子都是单独的 kernel，从显存读输入、"
                 "把输出写回；注意力用 FlashAttention kernel（Q、K、V 各读一次，O 写一次），不计因果 mask 的节省。"
                 "表中给出每组算子的 FLOPs 与显存字节数，保留 3 位有效数字。")


def _layer_table(m: models.Model, t: int) -> dict[str, tuple[float, float]]:
    """(FLOPs, bytes) per op group of one layer at T tokens, bf16, each op its own kernel."""
    d, f, kv = m.d_model, m.ffn, m.n_kv_heads * m.d_head
    q = m.n_heads * m.d_head
    b = 2
    proj_w = d * (q + 2 * kv) + q * d
    proj = (2 * t * proj_w, b * (proj_w + t * d + t * (q + 2 * kv) + t * q + t * d))
    attn = (4 * t * t * q, b * (2 * t * q + 2 * t * kv))
    mlp = (6 * t * d * f, b * (3 * d * f + 3 * t * d + 3 * t * f))
    # 2 RMSNorms (4 FLOPs/elem, read + write), 2 residual adds (1 FLOP, 2 reads + 1 write), SiLU·mul (5 FLOPs on f)
    elementwise = (t * d * (2 * 4 + 2 * 1) + t * f * 5, b * (t * d * (2 * 2 + 2 * 3) + t * f * 3))
    return {k: (round_sig(v[0], 3), round_sig(v[1], 3)) for k, v in
            (("proj", proj), ("attn", attn), ("mlp", mlp), ("elementwise", elementwise))}


LAYER_ROWS = (("proj", "Q, K, V and output projections", "Q、K、V 与输出投影"),
              ("attn", "Attention (FlashAttention)", "注意力（FlashAttention）"),
              ("mlp", "MLP GEMMs (gate, up, down)", "MLP 的 GEMM（gate、up、down）"),
              ("elementwise", "Element-wise: 2 RMSNorms, 2 residual adds, SiLU × up",
               "逐元素：2 个 RMSNorm、2 个残差相加、SiLU × up"))


@template("roofline.chain_layer_by_layer", topic="roofline",
          title="Chain: a layer's intensity, op group by op group",
          title_zh="追问链：整层的算术强度掩盖了访存受限的算子", difficulty=3, target_seconds=360)
def chain_layer_by_layer(rng):
    while True:  # prefill on one GPU: the bf16 weights fit there
        m = rng.choice([x for x in models.DENSE if x.gated])
        if _fitting_gpus(m, "bf16"):
            break
    gpu = rng.choice(_fitting_gpus(m, "bf16"))
    peak, bw = gpu.peak("bf16"), gpu.bandwidth
    r = ridge(peak, bw)
    while True:
        t = rng.choice((256, 512, 1024, 2048, 4096))
        table = _layer_table(m, t)
        flops = sum(v[0] for v in table.values())
        nbytes = sum(v[1] for v in table.values())
        i_layer = flops / nbytes
        if abs(i_layer / r - 1) > 0.15:
            break
    ef, eb = table["elementwise"]
    i_elem = ef / eb
    givens = card_givens(gpu, "bf16") + (given("model", "Model", "模型", m.name),
                                         given("t", "Tokens T", "token 数 T", t, counts=Noun.TOKENS))
    for key, en, zh in LAYER_ROWS:
        givens += (given(f"{key}_flops", f"{en}: FLOPs", f"{zh}：FLOPs", table[key][0], "flop", "GFLOP"),
                   given(f"{key}_bytes", f"{en}: bytes", f"{zh}：字节数", table[key][1], "bytes", "MB"))
    sum_en = (f"ΣFLOPs = {' + '.join(fmt_number(v[0]) for v in table.values())} = {fmt_number(flops)}; "
              f"ΣBytes = {' + '.join(fmt_number(v[1]) for v in table.values())} = {fmt_number(nbytes)} B",)
    sum_zh = (f"FLOPs 总和 = {' + '.join(fmt_number(v[0]) for v in table.values())} = {fmt_number(flops)}；"
              f"字节数总和 = {' + '.join(fmt_number(v[1]) for v in table.values())} = {fmt_number(nbytes)} B",)
    return Spec(
        scenario_en=f"\"Is {m.name} compute-bound on the {gpu.name}?\" Look at one layer in prefill at "
                    f"T = {t:,} tokens, op group by op group.",
        scenario_zh=f"「{m.name} 在 {gpu.name} 上是算力受限吗？」看 prefill 时 T = {t:,} 个 token 下的一层，逐组算子来看。",
        givens=givens,
        asks=(
            Ask(formula="arithmetic_intensity", unit="FLOP/B", inputs={"flops": flops, "bytes": nbytes},
                explanation=sum_en, explanation_zh=sum_zh,
                prompt_en="What is the arithmetic intensity of the layer as a whole (all FLOPs over all bytes), in FLOP/B?",
                prompt_zh="整层的算术强度（全部 FLOPs 除以全部字节数）是多少（FLOP/B）？"),
            bound_ask(i_layer, r, "Judged by that single figure, is the layer memory-bound or compute-bound?",
                      "只看这个总数，这一层是访存受限还是算力受限？", peak=peak, bandwidth=bw),
            Ask(formula="arithmetic_intensity", unit="FLOP/B", inputs={"flops": ef, "bytes": eb},
                prompt_en="What is the arithmetic intensity of the element-wise group alone, in FLOP/B?",
                prompt_zh="单看逐元素这一组，算术强度是多少（FLOP/B）？"),
            bound_ask(i_elem, r, "Is the element-wise group memory-bound or compute-bound?",
                      "逐元素这一组是访存受限还是算力受限？", peak=peak, bandwidth=bw),
        ),
        conventions_en=f"{CONV_EN} {COUNT_UNITS_EN} {LAYER_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{COUNT_UNITS_ZH}{LAYER_CONV_ZH}",
        world=World(model=m, gpu=gpu, precision="bf16", seq=t, holds=("weights",),
                    kernels=("RMSNorm", "residual add", "SiLU", "multiply")),
    )
