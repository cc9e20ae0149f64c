"""Inference-memory templates: the weights, whether they fit, and the KV cache.

Inference-memory templates (C§4): the weights, whether they fit one card, and the KV cache per token, per
batch and with a sliding window (Mistral 7B).
"""

from __future__ import annotations

from engine import formulas

from ... import hardware, kit, models
from ...hardware import DTYPE_BYTES
from ...models import Model
from ...spec import Ask, Spec, World, given
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH, an
from ..inference.decode import storable
from ..model_params import nominal_phi
from ..served_models import (
    KV_CONV_EN,
    KV_CONV_ZH,
    YES_NO,
    draw_seq,
    gb,
    heads_extra,
    kv_givens,
    model_given,
    model_zh,
    params_given,
    weight_bytes,
)

# --------------------------------------------------------------------------- #
# Weights


@template("inference.weights_bytes", topic="inference", title="Memory for the weights of a model",
          title_zh="模型权重占用的显存", difficulty=1, target_seconds=45)
def weights_bytes(rng):
    m = models.draw(rng, models.MODELS)
    dtype = rng.choice(("fp32", "bf16", "fp16", "fp8", "int8", "int4"))
    return Spec(
        givens=(model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype),
                given("bytes_per_param", "Bytes per parameter", "每参数字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="weights_bytes", unit="GB",
                  prompt_en=f"Weights take Φ × bytes per parameter. How much memory do {m.name}'s weights take in "
                            f"{dtype}, in GB?",
                  prompt_zh=f"权重显存 = Φ × 每参数字节数。{m.name} 的 {dtype} 权重占多少显存（GB）？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH, world=World(model=m),
    )


@template("inference.fits_on_card", topic="inference", title="Do the weights fit on one card?",
          title_zh="权重能否放进一张卡？", difficulty=2, target_seconds=60)
def fits_on_card(rng):
    while True:  # a format the chip can hold (no fp8 on V100 / A100; fp16 for 16-bit on V100)
        m, gpu = models.draw(rng, models.MODELS), hardware.draw(rng, hardware.GPUS)
        dtype = storable(gpu, rng.choice(("fp32", "bf16", "fp8", "int8", "int4")))
        if dtype is None:
            continue
        w = weight_bytes(m, dtype)
        if abs(w / gpu.memory - 1) > 0.08:
            break
    fits = w <= gpu.memory
    lines = formulas.get("weights_bytes").solution(phi=nominal_phi(m), bytes_per_param=DTYPE_BYTES[dtype])
    cmp_en = f"  {gb(w)} {'≤' if fits else '>'} {gb(gpu.memory)} of {gpu.name}: {'fits' if fits else 'does not fit'}"
    cmp_zh = f"  {gb(w)} {'≤' if fits else '>'} {gpu.name} 的 {gb(gpu.memory)}：{'放得下' if fits else '放不下'}"
    return Spec(
        givens=(model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype),
                given("gpu", "GPU", "GPU", gpu.name), kit.chip(gpu, "memory", label=("GPU memory", "GPU 显存"))),
        asks=(Ask(prompt_en=f"Do {m.name}'s weights alone fit in the memory of one {gpu.name} at {dtype}? "
                            "(ignore activations, KV cache and framework overhead) Answer yes or no.",
                  prompt_zh=f"只看权重，{m.name} 的 {dtype} 权重能放进一张 {gpu.name} 的显存吗？（忽略激活、KV Cache 与框架开销）"
                            "请回答「能」或「不能」。",
                  choices=YES_NO, answer="yes" if fits else "no",
                  explanation=tuple(lines) + (cmp_en,), explanation_zh=tuple(lines) + (cmp_zh,),
                  takeaway="the weights alone are Φ × bytes and set the floor; quantising to int8 or int4 is the "
                           "quickest way onto fewer cards.",
                  takeaway_zh="仅权重就要 Φ × 字节数，这是下限；量化到 int8 或 int4 是减少卡数最快的办法。",
                  card_formulas=("weights_bytes",)),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(model=m, gpu=gpu, weights=dtype, holds=("weights",), fit_is_asked=True),
    )


# --------------------------------------------------------------------------- #
# KV cache


def hypothetical_model(rng) -> Model:
    layers = rng.choice((24, 32, 40, 48, 60, 64, 80, 96))
    d_head = rng.choice((64, 128))
    n_heads = rng.choice((16, 32, 64, 96, 128))
    n_kv = rng.choice([k for k in (1, 2, 4, 8, 16, n_heads) if n_heads % k == 0])
    return Model("hypothetical", "a hypothetical model", layers, n_heads * d_head, n_heads, n_kv, d_head,
                 4 * n_heads * d_head, 32000, 1e9, True, "made up for the problem")


@template("inference.kv_bytes_per_token", topic="inference", title="KV cache bytes per token (formula given)",
          title_zh="每个 token 的 KV Cache 字节数（给出公式）", difficulty=1, target_seconds=60)
def kv_bytes_per_token(rng):
    m = models.draw(rng, models.MODELS) if rng.random() < 0.6 else hypothetical_model(rng)
    dtype = rng.choice(("fp32", "bf16", "fp16", "fp8"))
    name_zh = model_zh(m)
    return Spec(
        givens=(model_given(m),) + kv_givens(m) + (
            given("dtype", "KV precision", "KV 精度", dtype),
            given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="kv_bytes_per_token", unit="kB", extras=heads_extra(m),
                  prompt_en=f"KV bytes per token = 2 × bytes × L × n_kv × d_head. How many bytes of KV cache does "
                            f"{m.name} add per token with {an(dtype)} cache, in kB?",
                  prompt_zh=f"每 token 的 KV 字节数 = 2 × 字节数 × L × n_kv × d_head。{name_zh} 使用 {dtype} KV Cache 时，"
                            "每个 token 增加多少 KV Cache（kB）？"),),
        conventions_en=f"{CONV_EN} kB = 1e3 B. {KV_CONV_EN}", conventions_zh=f"{CONV_ZH}kB = 1e3 B。{KV_CONV_ZH}",
        world=World(model=m, kv=dtype),
    )


@template("inference.kv_cache_size", topic="inference", title="KV cache size of a batch (MHA / GQA / MQA)",
          title_zh="一个 batch 的 KV Cache 大小（MHA / GQA / MQA）", difficulty=2, target_seconds=90)
def kv_cache_size(rng):
    m = models.draw(rng, models.MODELS)
    dtype = rng.choice(("bf16", "fp16", "fp8"))
    batch, seq = rng.choice((1, 2, 4, 8, 16, 32, 64, 128)), draw_seq(rng, m)
    return Spec(
        givens=(model_given(m),) + kv_givens(m) + (
            given("batch", "Batch B", "batch 大小 B", batch), given("seq", "Sequence length S", "序列长度 S", seq),
            given("dtype", "KV precision", "KV 精度", dtype),
            given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes")),
        asks=(Ask(formula="kv_cache_bytes", unit="GB", extras=heads_extra(m),
                  prompt_en=f"How large is the {dtype} KV cache of {m.name} for a batch of {batch} sequences of "
                            f"{seq:,} tokens each, in GB?",
                  prompt_zh=f"{m.name} 在 batch 为 {batch}、每条序列 {seq:,} 个 token 时，{dtype} KV Cache 有多大（GB）？"),),
        conventions_en=f"{CONV_EN} {KV_CONV_EN}", conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}",
        world=World(model=m, kv=dtype, seq=seq, batch=batch),
    )


@template("inference.kv_cache_derive", topic="inference", title="KV cache from the raw model config",
          title_zh="由原始模型配置推导 KV Cache", difficulty=3, target_seconds=120)
def kv_cache_derive(rng):
    m = models.draw(rng, models.MODELS)
    dtype = rng.choice(("bf16", "fp8"))
    batch, seq = rng.choice((1, 4, 8, 16, 32, 64)), draw_seq(rng, m)
    bpe = DTYPE_BYTES[dtype]
    return Spec(
        givens=(model_given(m), kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model")),
                kit.model(m, "layers"),
                kit.model(m, "n_heads", label=("Attention (query) heads", "注意力（query）头数")),
                kit.model(m, "n_kv_heads", label=("KV heads", "KV 头数")),
                given("batch", "Batch B", "batch 大小 B", batch), given("seq", "Sequence length S", "序列长度 S", seq),
                given("dtype", "KV precision", "KV 精度", dtype)),
        asks=(Ask(formula="kv_cache_bytes", unit="GB", extras=heads_extra(m),
                  inputs={"batch": batch, "seq": seq, "layers": m.layers, "n_kv_heads": m.n_kv_heads,
                          "d_head": m.d_head, "bytes_per_elem": bpe},
                  explanation=(f"d_head = d_model / n_heads = {m.d_model} / {m.n_heads} = {m.d_head}; "
                               f"{dtype} = {bpe:g} B per element",),
                  explanation_zh=(f"d_head = d_model / n_heads = {m.d_model} / {m.n_heads} = {m.d_head}；"
                                  f"{dtype} 每元素 {bpe:g} B",),
                  prompt_en=f"From this config alone, how large is {m.name}'s {dtype} KV cache for {batch} sequences "
                            f"of {seq:,} tokens, in GB? (work out d_head yourself)",
                  prompt_zh=f"只根据这份配置，{m.name} 在 {batch} 条、每条 {seq:,} token 的序列上的 {dtype} KV Cache 有多大（GB）？"
                            "（d_head 需自行推出）"),),
        conventions_en=f"{CONV_EN} {KV_CONV_EN}", conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}",
        world=World(model=m, kv=dtype, seq=seq, batch=batch),
    )

SWA_CONV_EN = ("Sliding-window attention: every layer attends to (and caches) at most the last W tokens. KV cache = "
               "K and V for every layer, window and sequence. GB = 10⁹ B.")
SWA_CONV_ZH = ("滑动窗口注意力：每一层最多只关注（并缓存）最近 W 个 token。KV Cache 包含每一层、窗口内每个 token、"
               "每条序列的 K 和 V。GB = 10⁹ B。")


@template("inference.sliding_window_kv", topic="inference", title="KV cache with a sliding window (Mistral 7B)",
          title_zh="滑动窗口注意力的 KV Cache（Mistral 7B）", difficulty=2, target_seconds=120, source="jiang2023")
def sliding_window_kv(rng):
    m = models.get("mistral_7b")
    seq = rng.choice((8192, 12288, 16384, 20480, 24576, 32768))  # past the 4,096-token window, within the context
    # the window, not the sequence, sets the size: the batch is what varies the answer (20+ sizes over the seeds)
    batch, dtype = rng.choice((1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64)), rng.choice(("bf16", "fp8"))
    inputs = {"batch": batch, "seq": seq, "window": m.sliding_window, "layers": m.layers, "n_kv_heads": m.n_kv_heads,
              "d_head": m.d_head, "bytes_per_elem": DTYPE_BYTES[dtype]}
    return Spec(
        givens=(given("model", "Model", "模型", m.name), kit.model(m, "layers"),
                kit.model(m, "n_kv_heads"),
                kit.model(m, "d_head"),
                given("window", "Sliding window W", "滑动窗口 W", m.sliding_window),
                given("dtype", "KV precision", "KV 精度", dtype)),
        asks=(Ask(formula="sliding_window_kv_bytes", inputs=inputs, unit="GB",
                  prompt_en=f"{m.name} uses sliding-window attention in every layer (W = {m.sliding_window} tokens). "
                            f"It serves {batch} sequence{'s' if batch > 1 else ''} of {seq:,} tokens with "
                            f"{'an' if dtype == 'fp8' else 'a'} {dtype} KV cache. How large is the KV cache, in GB?",
                  prompt_zh=f"{m.name} 的每一层都使用滑动窗口注意力（W = {m.sliding_window} 个 token）。它同时服务 {batch} 条"
                            f"长 {seq:,} 个 token 的序列，KV Cache 为 {dtype}。KV Cache 有多大（GB）？"),),
        conventions_en=SWA_CONV_EN, conventions_zh=SWA_CONV_ZH,
        world=World(model=m, seq=seq, batch=batch, kv=dtype),
    )
