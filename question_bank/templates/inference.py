"""Inference templates (C§4, R§5.4): weights, KV cache, decode and prefill bounds, capacity planning.

Models carry their real head counts, so GQA/MQA problems pass ``n_heads`` as an
extra and the "used the query heads" misconception applies; for MHA models it
would coincide with the answer and is left out.  A model too big for one card
is served with tensor parallelism over the fewest power-of-two GPUs that hold
it, treated as one device with N× memory, bandwidth and compute.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity, round_sig

from .. import hardware, kit, models
from ..base import Ask, Given, Ref, Spec, World, given, settled_by_hand, template
from ..hardware import DTYPE_BYTES, GPU
from ..models import Model
from .memory import nominal_phi
from .roofline import CONV_EN, CONV_ZH, an, bw_given, peak_given

YES = Choice("yes", ("y", "fits", "it fits", "能", "可以", "是", "放得下", "装得下"), "能")
NO = Choice("no", ("n", "does not fit", "doesn't fit", "it does not fit", "不能", "不可以", "否", "放不下",
                   "装不下"), "不能")
YES_NO = (YES, NO)

KV_CONV_EN = ("The KV cache stores K and V for every layer: 2 × layers × n_kv_heads × d_head values per token.")
KV_CONV_ZH = "KV Cache 在每一层都存 K 和 V：每个 token 2 × 层数 × n_kv_heads × d_head 个值。"

WEIGHT_DTYPES = ("bf16", "fp8", "int4")


def _eval(name: str, **values) -> float:
    return formulas.get(name).evaluate(**values)


def model_given(m: Model) -> Given:
    return given("model", "Model", "模型", f"{m.name} ({m.attention})", value_zh=f"{model_zh(m)}（{m.attention}）")


def model_zh(m: Model) -> str:
    return m.name.replace("a hypothetical model", "一个假想模型")


def params_given(m: Model) -> Given:
    """Φ as people say it (69B for Llama-2-70B's 68.98B): every problem computes with this figure."""
    return kit.model(m, "phi")


def weight_bytes(m: Model, dtype: str) -> float:
    """W = Φ × bytes per parameter, from the Φ the givens show."""
    return nominal_phi(m) * DTYPE_BYTES[dtype]


def kv_givens(m: Model, *, with_d_head: bool = True) -> tuple[Given, ...]:
    fields = ("layers", "n_heads", "n_kv_heads") + (("d_head",) if with_d_head else ())
    return tuple(kit.model(m, f) for f in fields)


def heads_extra(m: Model) -> dict:
    """``n_heads`` for the used_n_heads misconception, only where it differs from the KV heads."""
    return {"n_heads": m.n_heads} if m.n_heads != m.n_kv_heads else {}


def kv_per_token(m: Model, bpe: float) -> float:
    return _eval("kv_bytes_per_token", layers=m.layers, n_kv_heads=m.n_kv_heads, d_head=m.d_head, bytes_per_elem=bpe)


def gb(value: float) -> str:
    return fmt_quantity(value, "bytes", unit="GB")


def devices(gpu: GPU, need: float) -> int:
    """Fewest power-of-two GPUs whose memory holds ``need`` bytes, at most 8 and never past the chip's scale-up
    domain (tensor parallelism over H100 PCIe cards stops at the NVLink-bridged pair): the caller checks the fit."""
    top = min(8, gpu.scale_up_domain or 8)
    n = 1
    while n * gpu.memory < need and n < top:
        n *= 2
    return n


def node_givens(gpu: GPU, n: int, dtype: str | None = None) -> tuple[Given, ...]:
    out = (given("gpu", "GPU", "GPU", gpu.name if n == 1 else f"{n} × {gpu.name} (tensor parallel)",
                 value_zh=gpu.name if n == 1 else f"{n} × {gpu.name}（张量并行）"),
           kit.chip(gpu, "memory", times=n,
                          label=("Memory (all GPUs)", "显存（全部 GPU）") if n > 1 else None),
           kit.chip(gpu, "bandwidth", times=n))
    if dtype:
        out += (kit.chip(gpu, "peak", dtype=dtype, times=n),)
    return out


def tp_note(gpu: GPU, n: int) -> tuple[str, str]:
    if n == 1:
        return "", ""
    return (f" It is sharded over {n} GPUs with tensor parallelism: treat them as one device with {n}× the memory, "
            "bandwidth and compute (the givens are already totals).",
            f"模型用张量并行切到 {n} 张 GPU 上：把它们看成一个显存、带宽、算力都是 {n} 倍的设备（给出的数据已是总和）。")


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


def _serving(rng, *, dense_only: bool = True, max_gpus: int = 8) -> tuple[Model, str, GPU, int]:
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


def _hypothetical_model(rng) -> Model:
    layers = rng.choice((24, 32, 40, 48, 60, 64, 80, 96))
    d_head = rng.choice((64, 128))
    n_heads = rng.choice((16, 32, 64, 96, 128))
    n_kv = rng.choice([k for k in (1, 2, 4, 8, 16, n_heads) if n_heads % k == 0])
    return Model("hypothetical", "a hypothetical model", layers, n_heads * d_head, n_heads, n_kv, d_head,
                 4 * n_heads * d_head, 32000, 1e9, True, "made up for the problem")


@template("inference.kv_bytes_per_token", topic="inference", title="KV cache bytes per token (formula given)",
          title_zh="每个 token 的 KV Cache 字节数（给出公式）", difficulty=1, target_seconds=60)
def kv_bytes_per_token(rng):
    m = models.draw(rng, models.MODELS) if rng.random() < 0.6 else _hypothetical_model(rng)
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


SEQS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 131072)


def _seq(rng, m: Model) -> int:
    return rng.choice([s for s in SEQS if s <= m.max_seq])


@template("inference.kv_cache_size", topic="inference", title="KV cache size of a batch (MHA / GQA / MQA)",
          title_zh="一个 batch 的 KV Cache 大小（MHA / GQA / MQA）", difficulty=2, target_seconds=90)
def kv_cache_size(rng):
    m = models.draw(rng, models.MODELS)
    dtype = rng.choice(("bf16", "fp16", "fp8"))
    batch, seq = rng.choice((1, 2, 4, 8, 16, 32, 64, 128)), _seq(rng, m)
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
    batch, seq = rng.choice((1, 4, 8, 16, 32, 64)), _seq(rng, m)
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


# --------------------------------------------------------------------------- #
# Decode and prefill bounds

DECODE_CONV_EN = ("Decode is memory-bound: each step reads all the weights once plus the KV cache of every sequence "
                  "in the batch; compute and activations are ignored.")
DECODE_CONV_ZH = "Decode 为访存受限：每一步把全部权重读一遍，再读 batch 中每条序列的 KV Cache；忽略计算与激活。"


@template("inference.decode_tps_given", topic="inference", title="Batch-1 decode speed bound (formula given)",
          title_zh="batch 为 1 的 decode 速度上限（给出公式）", difficulty=1, target_seconds=45)
def decode_tps_given(rng):
    gpu = hardware.draw(rng, hardware.GPUS)
    w = rng.choice((7, 8, 13, 14, 16, 26, 35, 40, 70, 80, 140)) * 1e9
    kv = rng.choice((0.25, 0.5, 1, 2, 4, 8)) * 1e9
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


def _decode_setup(rng, batch_choices=(1,)):
    """Model, weight dtype, GPU, GPU count, batch and context where weights + KV fit."""
    while True:
        m, dtype, gpu, n = _serving(rng)
        batch, seq = rng.choice(batch_choices), _seq(rng, m)
        w = weight_bytes(m, dtype)
        kv_seq = kv_per_token(m, 2) * seq
        if w + batch * kv_seq <= 0.9 * n * gpu.memory:
            return m, dtype, gpu, n, batch, seq, w, kv_seq


def _decode_lead(m: Model, dtype: str, seq: int, w: float, kv_seq: float) -> tuple[tuple[str, ...], tuple[str, ...]]:
    kvt = kv_per_token(m, 2)
    en = (f"W = Φ × bytes = {fmt_number(nominal_phi(m))} × {DTYPE_BYTES[dtype]:g} B = {gb(w)}",
          f"KV per sequence = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} × {seq:,} = {gb(kv_seq)}")
    zh = (f"W = Φ × 字节数 = {fmt_number(nominal_phi(m))} × {DTYPE_BYTES[dtype]:g} B = {gb(w)}",
          f"每条序列的 KV = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} × {seq:,} = {gb(kv_seq)}"
          f"（每 token {fmt_quantity(kvt, 'bytes', unit='kB')}）")
    return en, zh


@template("inference.decode_tps", topic="inference", title="Batch-1 decode tokens/s upper bound",
          title_zh="batch 为 1 的 decode tokens/s 上限", difficulty=2, target_seconds=120)
def decode_tps(rng):
    m, dtype, gpu, n, _, seq, w, kv_seq = _decode_setup(rng)
    lead_en, lead_zh = _decode_lead(m, dtype, seq, w, kv_seq)
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
    m, dtype, gpu, n, batch, seq, w, kv_seq = _decode_setup(rng, (2, 4, 8, 16, 32, 64, 128))
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


# --------------------------------------------------------------------------- #
# Capacity planning (R§5.4)

CAP_CONV_EN = "Memory holds the weights and the KV cache only (activations and framework overhead ignored)."
CAP_CONV_ZH = "显存只放权重和 KV Cache（忽略激活与框架开销）。"


def _capacity_setup(rng):
    """A serving setup where 2 or more full sequences fit next to the weights, a count settled by hand."""
    while True:
        m, dtype, gpu, n = _serving(rng)
        seq = _seq(rng, m)
        w, kv_seq = weight_bytes(m, dtype), kv_per_token(m, 2) * seq
        free = n * gpu.memory - w
        if free >= 2 * kv_seq and settled_by_hand("max_batch_fit", {"gpu_bytes": n * gpu.memory, "weight_bytes": w,
                                                                    "kv_bytes_per_seq": kv_seq}):
            return m, dtype, gpu, n, seq, w, kv_seq


def _fit_count(gpu: GPU, n: int, w: float, kv_seq: float) -> int:
    return int(_eval("max_batch_fit", gpu_bytes=n * gpu.memory, weight_bytes=w, kv_bytes_per_seq=kv_seq))


@template("inference.max_batch_fit", topic="inference", title="Largest batch whose KV cache fits",
          title_zh="KV Cache 能放下的最大 batch", difficulty=3, target_seconds=150)
def max_batch_fit(rng):
    m, dtype, gpu, n, seq, w, kv_seq = _capacity_setup(rng)
    lead_en, lead_zh = _decode_lead(m, dtype, seq, w, kv_seq)
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        givens=(model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype))
        + kv_givens(m) + node_givens(gpu, n)[:2] + (given("seq", "Tokens per sequence", "每条序列的 token 数", seq),),
        asks=(Ask(formula="max_batch_fit", unit="", integer=True,
                  inputs={"gpu_bytes": n * gpu.memory, "weight_bytes": w, "kv_bytes_per_seq": kv_seq},
                  explanation=lead_en, explanation_zh=lead_zh,
                  prompt_en=f"{m.name} is served with {dtype} weights and {an(gpu.sixteen)} KV cache; every sequence "
                            f"may grow to {seq:,} tokens.{tp_en} How many sequences fit in memory at once (a whole "
                            "number)?",
                  prompt_zh=f"{m.name} 以 {dtype} 权重、{gpu.sixteen} KV Cache 提供服务；每条序列最长 {seq:,} 个 token。"
                            f"{tp_zh}显存里最多能同时放下多少条序列（整数）？"),),
        conventions_en=f"{CONV_EN} {KV_CONV_EN} {CAP_CONV_EN}", conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}{CAP_CONV_ZH}",
        world=serving_world(m, gpu, dtype, n, seq, _fit_count(gpu, n, w, kv_seq)),
    )


@template("inference.min_gpus_serving", topic="inference", title="GPUs needed to serve a model with its KV cache",
          title_zh="装下模型与 KV Cache 所需的 GPU 数", difficulty=2, target_seconds=120)
def min_gpus_serving(rng):
    while True:
        m, gpu = models.draw(rng, models.MODELS), hardware.draw(rng, hardware.GPUS)
        dtype = storable(gpu, rng.choice(("bf16", "fp8", "int4")))
        batch, seq = rng.choice((1, 8, 16, 32, 64)), _seq(rng, m)
        if dtype is None:
            continue
        w = weight_bytes(m, dtype)
        kv = round_sig(_eval("kv_cache_bytes", batch=batch, seq=seq, layers=m.layers, n_kv_heads=m.n_kv_heads,
                             d_head=m.d_head, bytes_per_elem=2), 4)  # given as a round figure: computed as given
        total = w + kv
        if 1.05 < total / gpu.memory < 64 and settled_by_hand("min_gpus", {"total_bytes": total,
                                                                           "gpu_bytes": gpu.memory}):
            break
    lead = (f"total = W + KV = {gb(w)} + {gb(kv)} = {gb(total)}",)
    lead_zh = (f"总量 = 权重 + KV = {gb(w)} + {gb(kv)} = {gb(total)}",)
    return Spec(
        givens=(model_given(m), given("weight_bytes", f"Weights ({dtype})", f"权重（{dtype}）", w, "bytes", "GB"),
                given("kv_bytes", f"KV cache (batch {batch} × {seq:,} tokens, {gpu.sixteen})",
                      f"KV Cache（batch {batch} × {seq:,} token，{gpu.sixteen}）", kv, "bytes", "GB"),
                given("gpu", "GPU", "GPU", gpu.name),
                kit.chip(gpu, "memory", label=("Memory per GPU", "单卡显存"))),
        asks=(Ask(formula="min_gpus", unit="GPUs", integer=True, inputs={"total_bytes": total, "gpu_bytes": gpu.memory},
                  explanation=lead, explanation_zh=lead_zh,
                  prompt_en=f"What is the fewest {gpu.name} GPUs whose combined memory holds {m.name}'s weights and "
                            "this KV cache (sharded evenly)?",
                  prompt_zh=f"要装下 {m.name} 的权重和这份 KV Cache（均匀切分），最少需要多少张 {gpu.name}？"),),
        conventions_en=f"{CONV_EN} {CAP_CONV_EN}", conventions_zh=f"{CONV_ZH}{CAP_CONV_ZH}",
        # served on the answer's GPU count, sharded "evenly": the problem states no tensor-parallel degree
        world=serving_world(m, gpu, dtype, int(_eval("min_gpus", total_bytes=total, gpu_bytes=gpu.memory)), seq,
                            batch, tp=1),
    )


# --------------------------------------------------------------------------- #
# Chains


def _chain_givens(m: Model, dtype: str, gpu: GPU, n: int, seq: int) -> tuple[Given, ...]:
    kv = gpu.sixteen
    return ((model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype),
             given("bytes_per_param", "Bytes per parameter", "每参数字节数", DTYPE_BYTES[dtype], "bytes"))
            + kv_givens(m) + (given("bytes_per_elem", f"KV bytes per element ({kv})", f"KV 每元素字节数（{kv}）", 2,
                                    "bytes"),)
            + node_givens(gpu, n) + (given("seq", "Tokens per sequence", "每条序列的 token 数", seq),))


def _weights_ask() -> Ask:
    return Ask(formula="weights_bytes", unit="GB", prompt_en="How much memory do the weights take, in GB?",
               prompt_zh="权重占多少显存（GB）？")


def _kv_seq_ask(m: Model, seq: int) -> Ask:
    return Ask(formula="kv_cache_bytes", unit="GB", extras=heads_extra(m),
               inputs={"batch": 1, "seq": seq, "layers": m.layers, "n_kv_heads": m.n_kv_heads, "d_head": m.d_head,
                       "bytes_per_elem": 2},
               prompt_en=f"How large is the KV cache of one sequence of {seq:,} tokens, in GB?",
               prompt_zh=f"一条 {seq:,} token 的序列的 KV Cache 有多大（GB）？")


@template("inference.chain_decode", topic="inference", title="Chain: weights → KV per sequence → batch tok/s → critical batch",
          title_zh="追问链：权重 → 每条序列 KV → batch 吞吐 → 临界 batch", difficulty=2, target_seconds=360)
def chain_decode(rng):
    m, dtype, gpu, n, batch, seq, w, kv_seq = _decode_setup(rng, (4, 8, 16, 32, 64))
    while dtype == "int4" or not gpu.supports("bf16" if dtype == "bf16" else "fp8"):
        m, dtype, gpu, n, batch, seq, w, kv_seq = _decode_setup(rng, (4, 8, 16, 32, 64))
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        scenario_en=f"You serve {m.name} on {gpu.name if n == 1 else f'{n} × {gpu.name}'} with {dtype} weights and "
                    f"{an(gpu.sixteen)} KV cache, decoding {batch} sequences of {seq:,} tokens together.{tp_en}",
        scenario_zh=f"你在 {gpu.name if n == 1 else f'{n} 张 {gpu.name}'} 上部署 {m.name}，权重 {dtype}，KV Cache {gpu.sixteen}，"
                    f"同时 decode {batch} 条、每条 {seq:,} token 的序列。{tp_zh}",
        givens=_chain_givens(m, dtype, gpu, n, seq) + (peak_given(n * gpu.peak(dtype), dtype),
                                                       given("batch", "Batch B", "batch 大小 B", batch)),
        asks=(
            _weights_ask(),
            _kv_seq_ask(m, seq),
            Ask(formula="decode_tokens_per_s_batch", unit="tok/s",
                inputs={"bandwidth": n * gpu.bandwidth, "weight_bytes": Ref(0), "kv_bytes_per_seq": Ref(1),
                        "batch": batch},
                prompt_en=f"What is the upper bound on total tokens/s for the batch of {batch}?",
                prompt_zh=f"batch 为 {batch} 时，总吞吐上限是多少 tok/s？"),
            Ask(formula="critical_batch", unit="",
                inputs={"peak_flops": n * gpu.peak(dtype), "bandwidth": n * gpu.bandwidth,
                        "bytes_per_elem": DTYPE_BYTES[dtype]},
                prompt_en=f"Ignoring the KV reads, from which batch size would the {dtype} weight GEMMs become "
                          "compute-bound (ridge × bytes per weight ÷ 2)?",
                prompt_zh=f"忽略 KV 读取，batch 达到多少时 {dtype} 权重 GEMM 会变成算力受限（拐点 × 每权重字节数 ÷ 2）？"),
        ),
        conventions_en=f"{CONV_EN} {KV_CONV_EN} {DECODE_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}{DECODE_CONV_ZH}",
        world=serving_world(m, gpu, dtype, n, seq, batch),
    )


@template("inference.chain_capacity", topic="inference",
          title="Capacity planning chain: weights → KV per sequence → largest batch → tok/s",
          title_zh="容量规划追问链：权重 → 每条序列 KV → 最大 batch → 吞吐", difficulty=3, target_seconds=360, source="R§5.4")
def chain_capacity(rng):
    m, dtype, gpu, n, seq, w, kv_seq = _capacity_setup(rng)
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        scenario_en=f"Capacity planning: {m.name} with {dtype} weights and {an(gpu.sixteen)} KV cache on "
                    f"{gpu.name if n == 1 else f'{n} × {gpu.name}'}; every sequence may reach {seq:,} tokens.{tp_en}",
        scenario_zh=f"容量规划：{m.name}，权重 {dtype}，KV Cache {gpu.sixteen}，部署在 "
                    f"{gpu.name if n == 1 else f'{n} 张 {gpu.name}'} 上；每条序列最长 {seq:,} 个 token。{tp_zh}",
        givens=_chain_givens(m, dtype, gpu, n, seq),
        asks=(
            _weights_ask(),
            _kv_seq_ask(m, seq),
            Ask(formula="max_batch_fit", unit="", integer=True,
                inputs={"gpu_bytes": n * gpu.memory, "weight_bytes": Ref(0), "kv_bytes_per_seq": Ref(1)},
                prompt_en="How many full-length sequences fit in memory next to the weights (a whole number)?",
                prompt_zh="除去权重，显存还能同时放下多少条满长度的序列（整数）？"),
            Ask(formula="decode_tokens_per_s_batch", unit="tok/s",
                inputs={"bandwidth": n * gpu.bandwidth, "weight_bytes": Ref(0), "kv_bytes_per_seq": Ref(1),
                        "batch": Ref(2)},
                prompt_en="Decoding that many full-length sequences together, what is the upper bound on total tokens/s?",
                prompt_zh="把这么多条满长度序列一起 decode，总吞吐上限是多少 tok/s？"),
        ),
        conventions_en=f"{CONV_EN} {KV_CONV_EN} {CAP_CONV_EN} {DECODE_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}{CAP_CONV_ZH}{DECODE_CONV_ZH}",
        world=serving_world(m, gpu, dtype, n, seq, _fit_count(gpu, n, w, kv_seq)),
    )
