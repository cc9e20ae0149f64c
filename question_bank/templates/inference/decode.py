"""Decode and prefill templates: decode speed bounds, prefill time, FP4 decode on Blackwell.

Decode and prefill templates (C§4, R§5.4): batch-1 and batched decode speed bounds, prefill time, and FP4
decode on Blackwell for dense and few-active-parameter MoE models.

FP4 chips and models come from the catalogue's pools (``pools`` in question_bank/data/*.toml): ``fp4``
(B200, B300, GB200, GB300, MI355X), ``few_active`` (gpt-oss, Llama 4, Kimi-K2) and ``long_context``
(Llama-3.1 8B / 70B).
"""

from __future__ import annotations

from engine.units import fmt_number, fmt_quantity, round_sig

from ... import hardware, models
from ...hardware import GPU
from ...models import Model
from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH, an, bw_given, peak_given
from ..model_params import nominal_phi, phi_text
from ..served_models import (
    DECODE_CONV_EN,
    DECODE_CONV_ZH,
    KV_CONV_EN,
    KV_CONV_ZH,
    decode_lead,
    devices,
    draw_seq,
    kv_givens,
    kv_per_token,
    model_given,
    node_givens,
    params_given,
    tp_note,
    weight_bytes,
)

WEIGHT_DTYPES = ("bf16", "fp8", "int4")


def storable(gpu: GPU, dtype: str) -> str | None:
    """``dtype`` as this GPU keeps it: 16-bit is fp16 where there is no bf16 (V100); None when it cannot
    (fp8 before Ada/Hopper). int8/int4 are weight-only quantisation, served anywhere."""
    if dtype in ("bf16", "fp16"):
        return gpu.sixteen if dtype == "bf16" else "fp16"
    return dtype if gpu.stores(dtype) else None


def compute_dtype(gpu: GPU, weights: str) -> str:
    """The precision the math runs in: fp8 weights on fp8 tensor cores, else the chip's 16-bit format."""
    return weights if weights in ("fp8", "fp32") else gpu.sixteen


def serving_world(m: Model, gpu: GPU, dtype: str, n: int, seq: int, batch: int, tp: int | None = None,
                  **facts) -> World:
    """``n`` GPUs hold one copy of the model, by tensor parallelism over all of them unless ``tp`` says otherwise."""
    return World(model=m, gpu=gpu, precision=compute_dtype(gpu, dtype), weights=dtype, kv=gpu.sixteen, n_gpus=n,
                 tp=n if tp is None else tp, seq=seq, batch=batch, holds=("weights", "kv"), **facts)


def draw_serving(rng, *, dense_only: bool = True, max_gpus: int = 8) -> tuple[Model, str, GPU, int]:
    """A model, a weight precision the GPU can hold, a GPU type and the GPU count that holds the weights with
    room to spare."""
    while True:
        m = models.draw(rng, models.DENSE if dense_only else models.MODELS)
        dtype = rng.choice(WEIGHT_DTYPES)
        gpu = hardware.draw(rng, hardware.GPUS)
        dtype = storable(gpu, dtype)
        if dtype is None:
            continue
        w = weight_bytes(m, dtype)
        n = devices(gpu, 1.25 * w)
        if n * gpu.memory >= 1.25 * w and n <= max_gpus:
            return m, dtype, gpu, n


FITS_ONE_CARD = 0.9  # of the card's memory for weights + KV at batch 1


@template("inference.decode_tps_given", topic="inference", title="Batch-1 decode speed bound (formula given)",
          title_zh="batch 为 1 的 decode 速度上限（给出公式）", difficulty=1, target_seconds=45)
def decode_tps_given(rng):
    gpu = hardware.draw(rng, hardware.GPUS)
    while True:  # one card holds the weights and the KV cache, with room for activations and the runtime
        w = rng.choice((7, 8, 13, 14, 16, 26, 35, 40, 70, 80, 140)) * 1e9
        kv = rng.choice((0.25, 0.5, 1, 2, 4, 8)) * 1e9
        if w + kv <= FITS_ONE_CARD * gpu.memory:
            break
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name), bw_given(gpu.bandwidth),
                given("weight_bytes", "Weights W", "权重 W", w, "bytes", "GB"),
                given("kv_bytes", "KV cache of the sequence", "该序列的 KV Cache", kv, "bytes", "GB")),
        asks=(Ask(formula="decode_tokens_per_s", unit="tok/s",
                  prompt_en=f"At batch 1 every generated token reads all weights and the KV cache once: tokens/s ≤ "
                            f"bandwidth ÷ (W + KV). What is this upper bound on the {gpu.name}?",
                  prompt_zh=f"batch 为 1 时，每生成一个 token 都要把权重和 KV Cache 各读一遍：tokens/s ≤ 带宽 ÷ (W + KV)。"
                            f"在 {gpu.name} 上这个上限是多少（tok/s）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH, world=World(gpu=gpu),
    )


def decode_setup(rng, batch_choices=(1,)):
    """Model, weight dtype, GPU, GPU count, batch and context where weights + KV fit."""
    while True:
        m, dtype, gpu, n = draw_serving(rng)
        batch, seq = rng.choice(batch_choices), draw_seq(rng, m)
        w = weight_bytes(m, dtype)
        kv_seq = kv_per_token(m, 2) * seq
        if w + batch * kv_seq <= 0.9 * n * gpu.memory:
            return m, dtype, gpu, n, batch, seq, w, kv_seq


@template("inference.decode_tps", topic="inference", title="Batch-1 decode tokens/s upper bound",
          title_zh="batch 为 1 的 decode tokens/s 上限", difficulty=2, target_seconds=120)
def decode_tps(rng):
    m, dtype, gpu, n, _, seq, w, kv_seq = decode_setup(rng)
    lead_en, lead_zh = decode_lead(m, dtype, seq, w, kv_seq)
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        givens=(model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype))
        + kv_givens(m) + node_givens(gpu, n) + (given("seq", "Context length", "上下文长度", seq),),
        asks=(Ask(formula="decode_tokens_per_s", unit="tok/s", inputs={"bandwidth": n * gpu.bandwidth,
                                                                       "weight_bytes": w, "kv_bytes": kv_seq},
                  explanation=lead_en, explanation_zh=lead_zh,
                  prompt_en=f"{m.name} generates one sequence (batch 1) with {seq:,} tokens of context, weights in "
                            f"{dtype} and {an(gpu.sixteen)} KV cache.{tp_en} What is the upper bound on tokens per "
                            "second?",
                  prompt_zh=f"{m.name} 生成单条序列（batch 1），上下文 {seq:,} 个 token，权重为 {dtype}，KV Cache 为 "
                            f"{gpu.sixteen}。{tp_zh}每秒最多生成多少 token？"),),
        conventions_en=f"{CONV_EN} {KV_CONV_EN} {DECODE_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}{DECODE_CONV_ZH}",
        world=serving_world(m, gpu, dtype, n, seq, 1),
    )


@template("inference.decode_tps_batch", topic="inference", title="Decode throughput of a batch",
          title_zh="一个 batch 的 decode 吞吐", difficulty=2, target_seconds=90)
def decode_tps_batch(rng):
    m, dtype, gpu, n, batch, seq, w, kv_seq = decode_setup(rng, (2, 4, 8, 16, 32, 64, 128))
    kv_seq = round_sig(kv_seq, 4)  # given as a round figure: the answer uses that figure
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        givens=(model_given(m),) + node_givens(gpu, n)[:1] + (bw_given(n * gpu.bandwidth),
                given("weight_bytes", f"Weights W ({dtype})", f"权重 W（{dtype}）", w, "bytes", "GB"),
                given("kv_bytes_per_seq", "KV cache per sequence", "每条序列的 KV Cache", kv_seq, "bytes", "GB"),
                given("batch", "Batch B", "batch 大小 B", batch)),
        asks=(Ask(formula="decode_tokens_per_s_batch", unit="tok/s",
                  prompt_en=f"{batch} sequences are decoded together, each with {seq:,} tokens of context.{tp_en} "
                            "What is the upper bound on total generated tokens per second for the batch?",
                  prompt_zh=f"{batch} 条序列一起 decode，每条上下文 {seq:,} 个 token。{tp_zh}整个 batch 每秒最多生成多少 token？"),),
        conventions_en=f"{CONV_EN} {DECODE_CONV_EN}", conventions_zh=f"{CONV_ZH}{DECODE_CONV_ZH}",
        world=serving_world(m, gpu, dtype, n, seq, batch),
    )


@template("inference.prefill_time", topic="inference", title="Prefill time lower bound",
          title_zh="Prefill 时间下限", difficulty=2, target_seconds=90)
def prefill_time(rng):
    while True:  # 16-bit weights on the fewest power-of-two GPUs (at most 8) that hold them
        m, gpu = models.draw(rng, models.DENSE), hardware.draw(rng, hardware.GPUS)
        n = devices(gpu, 1.25 * weight_bytes(m, "bf16"))
        if n * gpu.memory >= 1.25 * weight_bytes(m, "bf16"):
            break
    dtype = gpu.sixteen
    batch, prompt = rng.choice((1, 2, 4, 8, 16)), rng.choice([s for s in (512, 1024, 2048, 4096, 8192) if s <= m.context])
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        givens=(model_given(m), params_given(m)) + node_givens(gpu, n, dtype)[:1] + (
            peak_given(n * gpu.peak(dtype), dtype),
            given("tokens", "Prompt tokens (batch × length)", "prompt token 数（batch × 长度）", batch * prompt)),
        asks=(Ask(formula="prefill_time", unit="ms",
                  prompt_en=f"Prefill runs {batch} prompt{'s' if batch > 1 else ''} of {prompt:,} tokens through "
                            f"{m.name} in {dtype}.{tp_en} Prefill is compute-bound at 2Φ FLOPs per token; ignoring the "
                            "attention term and assuming 100% of peak, what is the lower bound on its time, in ms?",
                  prompt_zh=f"Prefill 阶段把 {batch} 条、每条 {prompt:,} token 的 prompt 送入 {m.name}（{dtype}）。{tp_zh}"
                            "Prefill 为算力受限，每 token 2Φ FLOPs；忽略注意力项并假设跑满峰值，其时间下限是多少（ms）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m, gpu=gpu, precision=dtype, n_gpus=n, tp=n, seq=prompt, holds=("weights",)),
    )

FP4_BYTES = 0.5  # NVFP4 / MXFP4: 4-bit values (their per-block scales are ignored here, as the problem says)
FIT_SHARE = 0.9  # the weights may take at most this share of one chip's memory (the rest: KV cache, workspace)


def _gb(value: float) -> str:
    return fmt_quantity(value, "bytes", unit="GB")


def _kv_tokens(m: Model, seq: int) -> tuple[int, str, str]:
    """Token positions the KV cache holds summed over the layers, and how (windowed / chunked layers hold less)."""
    if m.sliding_window and m.sliding_window_layers in ("even", "alternate"):
        full = m.layers // 2
        part = m.layers - full
        held = min(seq, m.sliding_window)
        return (full * seq + part * held,
                f"{full} full-attention layers × {seq:,} + {part} sliding-window layers × {held:,}",
                f"{full} 个全注意力层 × {seq:,} + {part} 个滑动窗口层 × {held:,}")
    if m.chunked_attention:
        chunk = m.chunked_attention  # Llama 4: 3 of every 4 layers attend within their chunk (models.toml)
        glob = m.layers // 4
        part = m.layers - glob
        held = min(seq, chunk)
        return (glob * seq + part * held,
                f"{glob} global layers × {seq:,} + {part} chunked layers × {held:,}",
                f"{glob} 个全局层 × {seq:,} + {part} 个分块层 × {held:,}")
    return m.layers * seq, f"{m.layers} layers × {seq:,}", f"{m.layers} 层 × {seq:,}"


def _fp4_pairs() -> list[tuple[Model, GPU]]:
    chips = hardware.pool("fp4")
    pool = [m for m in models.pool("few_active") + models.pool("long_context") if not m.is_mla]
    return [(m, g) for m in pool for g in chips if m.total_params * FP4_BYTES <= FIT_SHARE * g.memory]


@template("inference.fp4_decode", topic="inference", title="FP4 decode on Blackwell: dense or MoE",
          title_zh="Blackwell 上的 FP4 decode：稠密与 MoE", difficulty=2, target_seconds=120,
          source="R§4.2, pope2022")
def fp4_decode(rng):
    m, gpu = rng.choice(_fp4_pairs())
    seq = rng.choice([s for s in (1024, 2048, 4096, 8192, 16384, 32768) if s <= m.context])
    read = m.flop_params if m.is_moe else nominal_phi(m)  # the weights a token multiplies: all, or the active ones
    w = read * FP4_BYTES
    tokens, how_en, how_zh = _kv_tokens(m, seq)
    kv = 2 * 2 * m.n_kv_heads * m.d_head * tokens
    moe = m.is_moe
    phi_en = (f"Φ_active = {fmt_number(read)} of {fmt_number(nominal_phi(m))} (top-{m.top_k} of {m.experts} experts)"
              if moe else f"Φ = {fmt_number(read)}")
    phi_zh = (f"Φ_active = {fmt_number(read)}（共 {fmt_number(nominal_phi(m))}，{m.experts} 个专家中 top-{m.top_k}）"
              if moe else f"Φ = {fmt_number(read)}")
    lead_en = (f"Weights read per token = {phi_en} × 0.5 B = {_gb(w)}" + (" (a MoE token reads only its experts)"
                                                                           if moe else ""),
               f"KV = 2 × 2 B × {m.n_kv_heads} × {m.d_head} × ({how_en}) = {_gb(kv)}")
    lead_zh = (f"每个 token 读的权重 = {phi_zh} × 0.5 B = {_gb(w)}" + ("（MoE 的 token 只读它选中的专家）" if moe else ""),
               f"KV = 2 × 2 B × {m.n_kv_heads} × {m.d_head} × （{how_zh}）= {_gb(kv)}")
    active_en = (f", {phi_text(read)} of them active per token: top-{m.top_k} of {m.experts} experts" if moe else "")
    active_zh = (f"，每个 token 激活其中 {phi_text(read)}：{m.experts} 个专家中 top-{m.top_k}" if moe else "")
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("gpu", "GPU", "GPU", gpu.name), bw_given(gpu.bandwidth),
                given("phi", "Parameters Φ", "参数量 Φ", nominal_phi(m), "count", "params"))
        + ((given("phi_active", "Active parameters Φ_active", "激活参数 Φ_active", read, "count", "params"),)
           if moe else ())
        + (given("seq", "Context length", "上下文长度", seq),),
        asks=(Ask(formula="decode_tokens_per_s", unit="tok/s",
                  inputs={"bandwidth": gpu.bandwidth, "weight_bytes": w, "kv_bytes": kv},
                  explanation=lead_en, explanation_zh=lead_zh,
                  decomposition=("at batch 1, every generated token reads the weights it uses (a MoE token: only its "
                                 "active experts) and the whole KV cache from memory once; its 2Φ FLOPs take far less "
                                 "time than those bytes",),
                  decomposition_zh=("batch 为 1 时，每生成一个 token 都要把它用到的权重（MoE 只读被选中的专家）和整个 "
                                    "KV Cache 从显存读一遍；它的 2Φ FLOPs 耗时远小于读这些字节",),
                  takeaway=("FP4 halves the bytes of fp8 and quarters bf16's, so a memory-bound decode runs up to 4× "
                            "faster than bf16 on the same chip; a MoE model reads only its active experts, so its "
                            "speed follows Φ_active while its memory follows Φ.") if moe else
                           ("FP4 weights are a quarter of bf16's bytes: batch-1 decode, which reads every weight per "
                            "token, runs up to 4× faster on the same chip."),
                  takeaway_zh=("FP4 的字节数是 fp8 的一半、bf16 的四分之一，访存受限的 decode 在同一芯片上最多快 4 倍；"
                               "MoE 模型每个 token 只读被选中的专家，速度看 Φ_active，显存看 Φ。") if moe else
                              "FP4 权重只有 bf16 的四分之一字节：batch 1 的 decode 每个 token 读一遍全部权重，"
                              "在同一芯片上最多快 4 倍。",
                  prompt_en=f"{m.name} ({phi_text(nominal_phi(m))} parameters{active_en}) is served on one "
                            f"{gpu.name} with its weights in FP4 (0.5 B per parameter) and a bf16 KV cache; one "
                            f"sequence (batch 1) has {seq:,} tokens of context. What is the upper bound on tokens per "
                            "second?",
                  prompt_zh=f"{m.name}（{phi_text(nominal_phi(m))} 参数{active_zh}）部署在一张 {gpu.name} 上，权重为 "
                            f"FP4（每参数 0.5 B），KV Cache 为 bf16；单条序列（batch 1）上下文 {seq:,} 个 token。"
                            "每秒最多生成多少 token？"),),
        conventions_en=f"{CONV_EN} FP4 = 0.5 B per parameter (block scales ignored). Decode is memory-bound: each "
                       "step reads the weights a token uses once plus the sequence's KV cache.",
        conventions_zh=f"{CONV_ZH}FP4 每参数 0.5 B（忽略分块缩放因子）。Decode 为访存受限：每一步把 token 用到的权重"
                       "读一遍，再读该序列的 KV Cache。",
        world=World(model=m, gpu=gpu, precision="fp4", weights="fp4", kv="bf16", seq=seq, batch=1,
                    holds=("weights",)),
    )
