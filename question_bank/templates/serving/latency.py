"""Serving-latency templates: TTFT and TPOT, latency targets, throughput, speculative decoding.

Serving-latency templates: TTFT and TPOT, the largest batch a latency target allows, throughput against
latency, and speculative decoding.

Worlds are the served models' (served_models): dense models with their real configs, served on the fewest
power-of-two GPUs of one node that hold the weights (tensor parallelism, treated as one device with N× memory,
bandwidth and compute), at a precision the GPU has, and at context lengths within the model's.  Decode is
memory-bound (a step reads the weights once and every sequence's KV cache); prefill is compute-bound at a
stated MFU.
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_number, fmt_quantity, round_sig

from ... import hardware, models
from ...hardware import DTYPE_BYTES, GPU
from ...models import Model
from ...spec import Ask, Ref, Spec, World, given, settled_by_hand
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH, an, peak_given
from ..model_params import nominal_phi
from ..served_models import (
    CAP_CONV_EN,
    CAP_CONV_ZH,
    DECODE_CONV_EN,
    DECODE_CONV_ZH,
    KV_CONV_EN,
    KV_CONV_ZH,
    YES_NO,
    decode_lead,
    devices,
    draw_seq,
    gb,
    heads_extra,
    kv_givens,
    kv_per_token,
    model_given,
    node_givens,
    params_given,
    tp_note,
    weight_bytes,
)


def evaluate(name: str, **values) -> float:
    return formulas.get(name).evaluate(**values)


# a dropped negligible term is a fine answer when it lands within tolerance (the KV reads of a short context)
APPROXIMATIONS = {"no_kv_step", "no_kv"}


def _clear(formula: str, inputs: dict, tolerance: float = 0.05) -> bool:
    """No wrong method of ``formula`` lands within ``tolerance`` of the answer (it would grade correct), an exact
    coincidence (the grader drops it) and an approximation aside."""
    from engine.grading import distance

    f = formulas.get(formula)
    v = f.evaluate(**inputs)
    return all(distance(x, v) > tolerance or x == v or m.key in APPROXIMATIONS
               for m, x in f.misconception_values(**inputs))

def ms(value: float) -> str:
    return fmt_quantity(value, "time", unit="ms")


def _t(value: float) -> str:
    """A short time in the unit that reads best (µs below 1 ms)."""
    text = fmt_quantity(value, "time")
    return text[:-2] + "µs" if text.endswith(" us") else text


TPOT_CONV_EN = ("TPOT (time per output token) is the time of one decode step: every sequence in the batch gets one "
                "token per step.")
TPOT_CONV_ZH = "TPOT（每个输出 token 的时间）就是一个 decode 步的时间：每一步 batch 里的每条序列各得到一个 token。"


def _tpot_split(w: float, kv_seq: float, batch: int, bw: float) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A TPOT solution's simplification: the step time split into the weight read and the KV reads, and which
    one dominates."""
    t_w, t_kv = w / bw, batch * kv_seq / bw
    en = (f"split by what is read: the weights W / BW = {ms(t_w)}, the KV cache B × KV_seq / BW = {_t(t_kv)}; ")
    zh = f"按读取的内容拆开：权重 W / BW = {ms(t_w)}，KV Cache B × KV_seq / BW = {_t(t_kv)}；"
    if t_kv < 0.1 * t_w:
        en += f"the weights dominate, so TPOT ≈ W / BW and one more sequence adds only KV_seq / BW = {_t(kv_seq / bw)}"
        zh += f"权重占绝大部分，所以 TPOT ≈ W / BW，每多一条序列只多 KV_seq / BW = {_t(kv_seq / bw)}"
    elif t_kv < t_w:
        en += (f"the weights still take the larger share, and one more sequence adds only KV_seq / BW = "
               f"{_t(kv_seq / bw)}")
        zh += f"权重仍占大头，每多一条序列只多 KV_seq / BW = {_t(kv_seq / bw)}"
    else:
        en += "the KV reads dominate, so a larger batch now costs TPOT almost in proportion"
        zh += "KV 读取已占大头，再加大 batch，TPOT 几乎按比例增长"
    return (en,), (zh,)


def _tpot_budget(w: float, kv_seq: float, bw: float, target: float) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A largest-batch-for-a-TPOT-target solution's simplification, in time: the weights' share of the target first."""
    t_w, t_kv = w / bw, kv_seq / bw
    left = target - t_w
    en = (f"in time: the weight read W / BW = {ms(t_w)} comes off the {target * 1000:g} ms target first; the "
          f"{ms(left)} left pays for KV_seq / BW = {_t(t_kv)} per sequence, so B_max = (BW × TPOT_max − W) / KV_seq")
    zh = (f"换成时间来看：{target * 1000:g} ms 的目标先扣掉读权重的 W / BW = {ms(t_w)}；剩下的 {ms(left)} 按每条序列 "
          f"KV_seq / BW = {_t(t_kv)} 来分，所以 B_max = (BW × TPOT_max − W) / KV_seq")
    return (en,), (zh,)


def draw_serving_setup(rng, *, batches=(1,), dtypes=("bf16", "fp8", "int4"), big: bool = False):
    """A dense model, weight precision, GPU, GPU count, batch and context where weights + KV fit in 90 %.

    fp8 weights only on GPUs with fp8 (the kernels compute in fp8); int4 is weight-only (dequantised to 16 bits)."""
    pool = [m for m in models.DENSE if m.params > 3e10] if big else models.DENSE
    while True:  # GPUs with bf16 (the KV cache is bf16): not the V100
        m, dtype, gpu = rng.choice(pool), rng.choice(dtypes), rng.choice(hardware.with_dtype("bf16"))
        if dtype == "fp8" and not gpu.supports("fp8"):
            continue
        w = weight_bytes(m, dtype)
        n = devices(gpu, 1.25 * w)
        batch, seq = rng.choice(batches), draw_seq(rng, m)
        kv_seq = kv_per_token(m, 2) * seq
        if n * gpu.memory >= 1.25 * w and w + batch * kv_seq <= 0.9 * n * gpu.memory:
            return m, dtype, gpu, n, batch, seq, w, kv_seq


def served_world(m: Model, dtype: str, gpu: GPU, n: int, seq: int, batch: int) -> World:
    """Served with ``dtype`` weights (int4: weight-only, math in 16 bits) and a bf16 KV cache of ``batch`` sequences."""
    math = gpu.sixteen if dtype == "int4" else dtype
    return World(model=m, gpu=gpu, precision=math, weights=dtype, kv="bf16", n_gpus=n, tp=n, seq=seq, batch=max(1, batch),
                 holds=("weights", "kv"))


def _spec_worlds(draft: str, target: str) -> tuple[World, ...]:
    """The catalogue models a speculative-decoding pair names."""
    named = {m.name: m for m in models.MODELS + models.MOE_MODELS}
    return tuple(World(model=named[x]) for x in (draft, target) if x in named)


def gpu_text(gpu: GPU, n: int) -> tuple[str, str]:
    return (gpu.name if n == 1 else f"{n} × {gpu.name}"), (gpu.name if n == 1 else f"{n} 张 {gpu.name}")


# --------------------------------------------------------------------------- #
# TTFT and TPOT


def _compute_dtype(gpu: GPU, rng) -> str:
    return rng.choice([d for d in ("bf16", "fp8") if gpu.supports(d)] or ["fp16"])


@template("serving.ttft", topic="serving", title="Time to first token (formula given)",
          title_zh="首 token 延迟 TTFT（给出公式）", difficulty=1, target_seconds=60, source="C§4.2, kipply2022")
def ttft(rng):
    while True:
        m, gpu = rng.choice(models.DENSE), rng.choice(hardware.GPUS)
        dtype = _compute_dtype(gpu, rng)
        n = devices(gpu, 1.25 * weight_bytes(m, dtype))
        if n * gpu.memory >= 1.25 * weight_bytes(m, dtype):
            break
    prompt = rng.choice([p for p in (256, 512, 1000, 1024, 2000, 2048, 4096, 8192, 16384, 32768) if p <= m.max_seq])
    # at most realism.MAX_MFU; 0.35 and 0.42 stand where 0.55 and 0.6 stood, so every other seed draws what it drew
    mfu = rng.choice((0.3, 0.4, 0.45, 0.5, 0.35, 0.42))
    tp_en, tp_zh = tp_note(gpu, n)
    # attention over the prompt, which 2Φ per token leaves out: Kaplan et al.'s 2·L·S·d_model per token, against 2Φ
    share = m.layers * prompt * m.d_model / nominal_phi(m)
    attn = (f"{m.layers} × {prompt:,} × {m.d_model:,} / ({fmt_number(nominal_phi(m))}) "
            + ("< 1 %" if share < 0.005 else f"≈ {share * 100:.0f} %"))
    return Spec(
        givens=(model_given(m), params_given(m), node_givens(gpu, n)[0], peak_given(n * gpu.peak(dtype), dtype),
                given("prompt_tokens", "Prompt tokens", "prompt 的 token 数", prompt),
                given("mfu", "MFU reached by prefill", "prefill 达到的 MFU", mfu, "ratio", "%")),
        asks=(Ask(formula="ttft", unit="ms",
                  simplification=("2Φ per token leaves out attention over the prompt: Kaplan et al. add 2 × L × S × "
                                  f"d_model FLOPs per token, here L × S × d_model / Φ = {attn} more"
                                  + (", small enough to ignore" if share < 0.1 else
                                     ": a prompt this long makes the real TTFT that much longer"),),
                  simplification_zh=("每 token 2Φ 没算注意力对整个 prompt 的计算：Kaplan 等每 token 另加 2 × L × S × "
                                     f"d_model FLOPs，这里多出 L × S × d_model / Φ = {attn}"
                                     + ("，可以忽略" if share < 0.1 else "：prompt 这么长，实际 TTFT 要长这么多"),),
                  prompt_en=f"A request with {an(f'{prompt:,}-token')} prompt arrives at an idle {m.name} server running in "
                            f"{dtype}.{tp_en} Prefill is compute-bound: TTFT ≈ 2Φ × prompt tokens ÷ (peak × MFU). "
                            "What is the time to first token, in ms?",
                  prompt_zh=f"一个 prompt 为 {prompt:,} 个 token 的请求到达空闲的 {m.name} 服务（{dtype}）。{tp_zh}"
                            "Prefill 为算力受限：TTFT ≈ 2Φ × prompt token 数 ÷ (峰值 × MFU)。首 token 延迟是多少（ms）？"),),
        conventions_en=f"{CONV_EN} Queueing and the first decode step are ignored.",
        conventions_zh=f"{CONV_ZH}忽略排队和第一个 decode 步。",
        world=World(model=m, gpu=gpu, precision=dtype, n_gpus=n, tp=n, seq=prompt, holds=("weights",)),
    )


@template("serving.tpot", topic="serving", title="Time per output token of a decode batch",
          title_zh="一个 decode batch 的每 token 时间 TPOT", difficulty=2, target_seconds=150,
          source="C§4.2, kipply2022")
def tpot(rng):
    while True:  # no wrong method (one sequence's KV for the batch's) within tolerance
        m, dtype, gpu, n, batch, seq, w, kv_seq = draw_serving_setup(rng, batches=(1, 4, 8, 16, 32, 64, 128))
        if _clear("decode_step_time", {"bandwidth": n * gpu.bandwidth, "weight_bytes": w, "kv_bytes_per_seq": kv_seq,
                                       "batch": batch}):
            break
    lead_en, lead_zh = decode_lead(m, dtype, seq, w, kv_seq)
    split_en, split_zh = _tpot_split(w, kv_seq, batch, n * gpu.bandwidth)
    tp_en, tp_zh = tp_note(gpu, n)
    return Spec(
        givens=(model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype))
        + kv_givens(m) + node_givens(gpu, n) + (given("seq", "Context per sequence", "每条序列的上下文", seq),
                                                given("batch", "Batch B", "batch 大小 B", batch)),
        asks=(Ask(formula="decode_step_time", unit="ms",
                  inputs={"bandwidth": n * gpu.bandwidth, "weight_bytes": w, "kv_bytes_per_seq": kv_seq,
                          "batch": batch},
                  explanation=lead_en, explanation_zh=lead_zh, simplification=split_en, simplification_zh=split_zh,
                  prompt_en=f"{m.name} decodes a batch of {batch} with {seq:,} tokens of context each, {dtype} "
                            f"weights and a bf16 KV cache.{tp_en} What is the time per output token (one decode step), "
                            "in ms?",
                  prompt_zh=f"{m.name} decode 一个 batch 为 {batch} 的请求，每条上下文 {seq:,} 个 token，权重 {dtype}，"
                            f"KV Cache 为 bf16。{tp_zh}每个输出 token 的时间（一个 decode 步）是多少（ms）？"),),
        conventions_en=f"{CONV_EN} {KV_CONV_EN} {DECODE_CONV_EN} {TPOT_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}{DECODE_CONV_ZH}{TPOT_CONV_ZH}",
        world=served_world(m, dtype, gpu, n, seq, batch),
    )


TARGETS_MS = (20, 25, 30, 40, 50, 60, 75, 100)


def _tpot_batch_setup(rng):
    """Round W and KV per sequence, and a TPOT target whose batch is 2+, fits in memory and is settled by hand."""
    while True:
        m, dtype, gpu, n, _, seq, w, kv_seq = draw_serving_setup(rng)
        kv_seq = round_sig(kv_seq, 3)
        bw = n * gpu.bandwidth
        target = rng.choice(TARGETS_MS) / 1000
        inputs = {"tpot_target": target, "bandwidth": bw, "weight_bytes": w, "kv_bytes_per_seq": kv_seq}
        if target * bw < w + 2 * kv_seq or target * bw / kv_seq >= 9999:  # "forgot the weights" shown in full
            continue
        b = evaluate("max_batch_tpot", **inputs)
        # memory holds that batch, with room for the rounding of Φ and KV (the published counts are a little larger)
        if w + b * kv_seq <= 0.95 * n * gpu.memory and settled_by_hand("max_batch_tpot", inputs):
            return m, dtype, gpu, n, seq, w, kv_seq, target, inputs


@template("serving.max_batch_tpot", topic="serving", title="Largest batch that meets a TPOT target",
          title_zh="满足 TPOT 目标的最大 batch", difficulty=3, target_seconds=150, source="R§5.4, kipply2022")
def max_batch_tpot(rng):
    m, dtype, gpu, n, seq, w, kv_seq, target, inputs = _tpot_batch_setup(rng)
    tp_en, tp_zh = tp_note(gpu, n)
    budget_en, budget_zh = _tpot_budget(w, kv_seq, n * gpu.bandwidth, target)
    return Spec(
        givens=(model_given(m),) + node_givens(gpu, n)[:1] + (node_givens(gpu, n)[2],
                given("weight_bytes", f"Weights W ({dtype})", f"权重 W（{dtype}）", w, "bytes", "GB"),
                given("kv_bytes_per_seq", f"KV cache per sequence ({seq:,} tokens, bf16)",
                      f"每条序列的 KV Cache（{seq:,} token，bf16）", kv_seq, "bytes", "GB"),
                given("tpot_target", "TPOT target", "TPOT 目标", target, "time", "ms")),
        asks=(Ask(formula="max_batch_tpot", unit="", integer=True, simplification=budget_en,
                  simplification_zh=budget_zh,
                  prompt_en=f"Your SLO says every user must see a new token at least every {target * 1000:g} ms.{tp_en} "
                            "What is the largest decode batch whose step time meets that TPOT target (a whole number; "
                            "memory holds it)?",
                  prompt_zh=f"SLO 要求每个用户至少每 {target * 1000:g} ms 看到一个新 token。{tp_zh}"
                            "decode 步时满足这个 TPOT 目标的最大 batch 是多少（整数；显存放得下）？"),),
        conventions_en=f"{CONV_EN} {DECODE_CONV_EN} {TPOT_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{DECODE_CONV_ZH}{TPOT_CONV_ZH}",
        world=served_world(m, dtype, gpu, n, seq, int(evaluate("max_batch_tpot", **inputs))),
    )


@template("serving.chain_throughput_latency", topic="serving",
          title="Chain: latency vs throughput as the batch grows",
          title_zh="追问链：batch 1 的 TPOT → batch B 的 TPOT → 吞吐 → 满足 TPOT 目标的最大 batch", difficulty=2,
          target_seconds=420, source="C§4.2, kipply2022, pope2022")
def chain_throughput_latency(rng):
    while True:  # a batch for steps 2-3 that fits, and whose TPOT no wrong method lands near
        m, dtype, gpu, n, seq, w, kv_seq, target, inputs = _tpot_batch_setup(rng)
        bw = n * gpu.bandwidth
        limit = evaluate("max_batch_tpot", **inputs)
        batches = [b for b in (8, 16, 32, 64, 128) if b != limit and w + b * kv_seq <= 0.95 * n * gpu.memory
                   and _clear("decode_step_time", {"bandwidth": bw, "weight_bytes": w, "kv_bytes_per_seq": kv_seq,
                                                   "batch": b})]
        if batches:
            break
    batch = rng.choice(batches)
    tp_en, tp_zh = tp_note(gpu, n)
    name_en, name_zh = gpu_text(gpu, n)
    t1 = evaluate("decode_step_time", bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq, batch=1)
    slower = evaluate("decode_step_time", bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq, batch=batch) / t1
    split1, split_b, budget = (_tpot_split(w, kv_seq, 1, bw), _tpot_split(w, kv_seq, batch, bw),
                               _tpot_budget(w, kv_seq, bw, target))
    return Spec(
        scenario_en=f"Throughput or latency? {m.name} with {dtype} weights on {name_en}; every sequence has "
                    f"{seq:,} tokens of context.{tp_en}",
        scenario_zh=f"吞吐还是延迟？{m.name}，权重 {dtype}，部署在 {name_zh} 上；每条序列的上下文为 {seq:,} 个 token。{tp_zh}",
        givens=(model_given(m), node_givens(gpu, n)[2],
                given("weight_bytes", f"Weights W ({dtype})", f"权重 W（{dtype}）", w, "bytes", "GB"),
                given("kv_bytes_per_seq", "KV cache per sequence (bf16)", "每条序列的 KV Cache（bf16）", kv_seq, "bytes",
                      "GB"),
                given("batch", "Batch B in steps 2-3", "第 2-3 问的 batch B", batch),
                given("tpot_target", "TPOT target in step 4", "第 4 问的 TPOT 目标", target, "time", "ms")),
        asks=(
            Ask(formula="decode_step_time", unit="ms", inputs={"bandwidth": bw, "weight_bytes": w,
                                                              "kv_bytes_per_seq": kv_seq, "batch": 1},
                simplification=split1[0], simplification_zh=split1[1],
                takeaway=f"at batch 1 every token pays for reading all the weights (plus its own KV cache): one user "
                         f"gets 1 / TPOT = {fmt_number(1 / t1)} tok/s, set by the memory bandwidth, not by the FLOPs.",
                takeaway_zh=f"batch 为 1 时每个 token 都要读一遍全部权重（再加自己的 KV Cache）：一个用户只能拿到 1 / TPOT = "
                            f"{fmt_number(1 / t1)} tok/s，这由显存带宽决定，而不是算力。",
                prompt_en="What is the TPOT (one decode step) with a single sequence, in ms?",
                prompt_zh="只有一条序列时，TPOT（一个 decode 步）是多少（ms）？"),
            Ask(formula="decode_step_time", unit="ms", inputs={"bandwidth": bw, "weight_bytes": w,
                                                              "kv_bytes_per_seq": kv_seq, "batch": batch},
                simplification=split_b[0], simplification_zh=split_b[1],
                takeaway=f"batch {batch} makes each step {fmt_number(slower, 3)}× as long as batch 1 but yields {batch}× "
                         "the tokens: "
                         f"{fmt_number(batch / slower, 3)}× the throughput for {fmt_number(slower, 3)}× the TPOT, "
                         "the trade-off a latency SLO settles.",
                takeaway_zh=f"batch 为 {batch} 时每一步的时间变为 batch 1 的 {fmt_number(slower, 3)} 倍，却产出 {batch} 倍的 "
                            f"token：用 {fmt_number(slower, 3)} 倍的 TPOT 换来 {fmt_number(batch / slower, 3)} 倍的吞吐，"
                            "这个取舍由延迟 SLO 来定。",
                prompt_en=f"And with a batch of {batch}, in ms?", prompt_zh=f"batch 为 {batch} 时呢（ms）？"),
            Ask(formula="decode_tokens_per_s_batch", unit="tok/s",
                inputs={"bandwidth": bw, "weight_bytes": w, "kv_bytes_per_seq": kv_seq, "batch": batch},
                prompt_en=f"What total throughput does the batch of {batch} reach, in tok/s?",
                prompt_zh=f"batch 为 {batch} 时总吞吐是多少（tok/s）？"),
            Ask(formula="max_batch_tpot", unit="", integer=True, inputs=inputs, simplification=budget[0],
                simplification_zh=budget[1],
                prompt_en=f"What is the largest batch whose TPOT meets {target * 1000:g} ms (a whole number)?",
                prompt_zh=f"TPOT 不超过 {target * 1000:g} ms 的最大 batch 是多少（整数）？"),
        ),
        conventions_en=f"{CONV_EN} {DECODE_CONV_EN} {TPOT_CONV_EN} {CAP_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{DECODE_CONV_ZH}{TPOT_CONV_ZH}{CAP_CONV_ZH}",
        world=served_world(m, dtype, gpu, n, seq, max(batch, int(limit))),
    )


def _big_serving(rng):
    """A 65B+ dense model on 8 GPUs of a node with room for 2+ full sequences, a batch settled by hand."""
    while True:
        m = rng.choice([x for x in models.DENSE if x.params > 6e10 and x.gated])
        # one NVLink node of 80 GB+ GPUs (not H100 PCIe: its NVLink bridges pair two cards only)
        gpu = rng.choice([g for g in hardware.GPUS if g.memory >= 80e9 and g.key != "h100_pcie"])
        dtype = rng.choice([d for d in ("bf16", "fp8") if gpu.supports(d)])
        n = 8
        seq = draw_seq(rng, m)
        w, kv_seq = weight_bytes(m, dtype), kv_per_token(m, 2) * seq
        mem = n * gpu.memory
        inputs = {"gpu_bytes": mem, "weight_bytes": w, "kv_bytes_per_seq": kv_seq}
        if mem - w >= 2 * kv_seq and settled_by_hand("max_batch_fit", inputs):
            return m, dtype, gpu, n, seq, w, kv_seq


@template("serving.chain_serve_node", topic="serving",
          title="Chain: serve on one 8-GPU node: batch → TPOT → SLO?",
          title_zh="追问链：单台 8 卡节点部署：最大 batch → TPOT → 满足 SLO？",
          difficulty=3, target_seconds=540, source="R§5.4, C§4.2, kipply2022")
def chain_serve_node(rng):
    m, dtype, gpu, n, seq, w, kv_seq = _big_serving(rng)
    bw, mem = n * gpu.bandwidth, n * gpu.memory
    b = int(evaluate("max_batch_fit", gpu_bytes=mem, weight_bytes=w, kv_bytes_per_seq=kv_seq))
    tpot_full = evaluate("decode_step_time", bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq, batch=b)
    target = rng.choice([t for t in TARGETS_MS if abs(t / 1000 / tpot_full - 1) > 0.1] or [TARGETS_MS[-1]]) / 1000
    meets = tpot_full <= target
    bw_text, t_ms = fmt_quantity(bw, "bandwidth"), f"{target * 1000:g} ms"
    step_en = (f"TPOT at that batch (step 4) = (W + B × KV_seq) / BW = ({gb(w)} + {b} × {gb(kv_seq)}) / {bw_text} "
               f"= {ms(tpot_full)}")
    step_zh = (f"这个 batch 下的 TPOT（第 4 问）= (W + B × KV_seq) / BW = ({gb(w)} + {b} × {gb(kv_seq)}) / {bw_text} "
               f"= {ms(tpot_full)}")
    verdict_en = (f"{ms(tpot_full)} {'≤' if meets else '>'} {t_ms}: "
                  f"{'meets the SLO' if meets else 'misses the SLO: serve a smaller batch (or quantise the KV cache)'}")
    verdict_zh = (f"{ms(tpot_full)} {'≤' if meets else '>'} {t_ms}："
                  f"{'满足 SLO' if meets else '达不到 SLO：要减小 batch（或量化 KV Cache）'}")
    slo_b = evaluate("max_batch_tpot", tpot_target=target, bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq)
    cap_en = (f"largest batch the SLO allows: floor((BW × TPOT_max − W) / KV_seq) = floor(({bw_text} × {t_ms} − "
              f"{gb(w)}) / {gb(kv_seq)}) = {slo_b:g}")
    cap_zh = (f"SLO 允许的最大 batch：floor((BW × TPOT_max − W) / KV_seq) = floor(({bw_text} × {t_ms} − "
              f"{gb(w)}) / {gb(kv_seq)}) = {slo_b:g}")
    if meets:
        cap_en += f" ≥ {b}: memory, not the SLO, caps the batch"
        cap_zh += f" ≥ {b}：限制 batch 的是显存，不是 SLO"
    elif slo_b >= 1:
        cap_en += f" < {b}: the SLO, not memory, caps the batch at {slo_b:g} sequence{'s' if slo_b != 1 else ''}"
        cap_zh += f" < {b}：限制 batch 的是 SLO，不是显存，最多 {slo_b:g} 条序列"
    else:
        cap_en += f": the weight read alone, W / BW = {ms(w / bw)}, is over the target; no batch meets it"
        cap_zh += f"：光读权重就要 W / BW = {ms(w / bw)}，已经超过目标，多小的 batch 都达不到"
    split_en, split_zh = _tpot_split(w, kv_seq, b, bw)
    return Spec(
        scenario_en=f"Serve {m.name} with {dtype} weights and a bf16 KV cache on one node of 8 × {gpu.name} "
                    f"(tensor parallel: treat it as one device with 8× the memory and bandwidth). Requests may reach "
                    f"{seq:,} tokens; the SLO asks for a TPOT of at most {target * 1000:g} ms.",
        scenario_zh=f"在一台 8 × {gpu.name} 的节点上部署 {m.name}，权重 {dtype}，KV Cache bf16（张量并行：看成一个显存和带宽"
                    f"都是 8 倍的设备）。请求最长 {seq:,} 个 token；SLO 要求 TPOT 不超过 {target * 1000:g} ms。",
        givens=(model_given(m), params_given(m), given("dtype", "Weight precision", "权重精度", dtype),
                given("bytes_per_param", "Bytes per parameter", "每参数字节数", DTYPE_BYTES[dtype], "bytes"))
        + kv_givens(m) + node_givens(gpu, n)
        + (given("seq", "Tokens per sequence", "每条序列的 token 数", seq),
           given("tpot_target", "TPOT target", "TPOT 目标", target, "time", "ms")),
        asks=(
            Ask(formula="weights_bytes", unit="GB", prompt_en="How much memory do the weights take, in GB?",
                prompt_zh="权重占多少显存（GB）？"),
            Ask(formula="kv_cache_bytes", unit="GB", extras=heads_extra(m),
                inputs={"batch": 1, "seq": seq, "layers": m.layers, "n_kv_heads": m.n_kv_heads, "d_head": m.d_head,
                        "bytes_per_elem": 2},
                prompt_en=f"How large is the KV cache of one sequence of {seq:,} tokens, in GB?",
                prompt_zh=f"一条 {seq:,} token 的序列的 KV Cache 有多大（GB）？"),
            Ask(formula="max_batch_fit", unit="", integer=True,
                inputs={"gpu_bytes": mem, "weight_bytes": Ref(0), "kv_bytes_per_seq": Ref(1)},
                prompt_en="How many full-length sequences fit in memory next to the weights (a whole number)?",
                prompt_zh="除去权重，显存还能同时放下多少条满长度的序列（整数）？"),
            Ask(formula="decode_step_time", unit="ms",
                inputs={"bandwidth": bw, "weight_bytes": Ref(0), "kv_bytes_per_seq": Ref(1), "batch": Ref(2)},
                simplification=split_en, simplification_zh=split_zh,
                prompt_en="Decoding that many full-length sequences together, what is the TPOT, in ms?",
                prompt_zh="把这么多条满长度序列一起 decode，TPOT 是多少（ms）？"),
            Ask(prompt_en=f"Does that meet the {target * 1000:g} ms SLO? Answer yes or no.",
                prompt_zh=f"这满足 {target * 1000:g} ms 的 SLO 吗？请回答「能」或「不能」。",
                choices=YES_NO, answer="yes" if meets else "no", explanation=(step_en, verdict_en, cap_en),
                explanation_zh=(step_zh, verdict_zh, cap_zh), card_formulas=("max_batch_tpot",),
                takeaway="the batch memory holds and the batch the TPOT SLO allows are two different limits: serve "
                         "min(memory limit, (BW × TPOT_max − W) / KV_seq), and check TPOT before filling the memory.",
                takeaway_zh="显存放得下的 batch 和 TPOT SLO 允许的 batch 是两个不同的上限：实际 batch 取 min(显存上限, "
                            "(BW × TPOT_max − W) / KV_seq)，把显存塞满之前先算一下 TPOT。"),
        ),
        conventions_en=f"{CONV_EN} {KV_CONV_EN} {CAP_CONV_EN} {DECODE_CONV_EN} {TPOT_CONV_EN}",
        conventions_zh=f"{CONV_ZH}{KV_CONV_ZH}{CAP_CONV_ZH}{DECODE_CONV_ZH}{TPOT_CONV_ZH}",
        world=served_world(m, dtype, gpu, n, seq, b),
    )


# --------------------------------------------------------------------------- #
# Speculative decoding (family 11)

SPEC_CONV_EN = ("Speculative decoding: a draft model proposes γ tokens, the target model checks them in one pass; each "
                "draft token is accepted with probability α independently, the run stops at the first rejection, and "
                "the target pass always adds one token of its own.")
SPEC_CONV_ZH = ("投机解码：草稿模型先提出 γ 个 token，目标模型一次前向就把它们验证完；每个草稿 token 以概率 α 独立地被接受，"
                "遇到第一个被拒绝的就停止，目标模型这一轮总会自己再产出一个 token。")
# (draft, target, cost of a draft pass ÷ a target pass) for pairs that share a tokenizer; at batch 1 decode is
# memory-bound, so a pass costs about the weight bytes it reads: c ≈ Φ_draft ÷ Φ_target (Mixtral: its 12.9B active)
SPEC_PAIRS = (("Llama-3-8B", "Llama-3-70B", 0.11), ("Llama-2-7B", "Llama-2-70B", 0.1),
              ("Llama-3-8B", "Llama-3.1-405B", 0.02), ("a 1B draft model", "Llama-3-70B", 0.015),
              ("a 1B draft model", "Llama-3-8B", 0.12), ("Mistral-7B", "Mixtral-8x7B", 0.56))
SPEC_PAIRS_ZH = {"a 1B draft model": "一个 1B 的草稿模型"}





def _spec_draw(rng, formula: str, cost: float | None = None):
    while True:
        alpha = rng.choice((0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9))
        gamma = rng.choice((2, 3, 4, 5, 6, 8))
        inputs = {"acceptance": alpha, "draft_tokens": gamma} | ({"cost_ratio": cost} if cost else {})
        if _clear(formula, inputs):
            return alpha, gamma


@template("serving.spec_tokens", topic="serving", title="Tokens per target pass with speculative decoding",
          title_zh="投机解码中每次目标模型前向产出的 token 数", difficulty=2, target_seconds=90,
          source="leviathan2023, chen2023")
def spec_tokens(rng):
    alpha, gamma = _spec_draw(rng, "spec_decode_tokens_per_step")
    draft, target, _ = rng.choice(SPEC_PAIRS)
    return Spec(
        givens=(given("acceptance", "Acceptance rate α", "接受率 α", alpha, "ratio"),
                given("draft_tokens", "Draft tokens γ", "草稿 token 数 γ", gamma)),
        asks=(Ask(formula="spec_decode_tokens_per_step", unit="",
                  prompt_en=f"{draft} drafts for {target}. How many tokens does one target-model pass yield on "
                            "average (accepted drafts plus the target's own token)?",
                  prompt_zh=f"{SPEC_PAIRS_ZH.get(draft, draft)} 为 {target} 打草稿。目标模型每次前向平均产出多少个 token"
                            "（被接受的草稿加上目标模型自己的一个）？"),),
        conventions_en=f"{SPEC_CONV_EN} Expected tokens per pass = (1 − α^(γ+1)) ÷ (1 − α).",
        conventions_zh=f"{SPEC_CONV_ZH}每次前向的期望 token 数 = (1 − α^(γ+1)) ÷ (1 − α)。",
        world=_spec_worlds(draft, target),
    )


@template("serving.spec_speedup", topic="serving", title="Speed-up of speculative decoding",
          title_zh="给定草稿开销时投机解码的加速比", difficulty=2, target_seconds=120,
          source="leviathan2023, chen2023")
def spec_speedup(rng):
    draft, target, cost = rng.choice(SPEC_PAIRS)
    alpha, gamma = _spec_draw(rng, "spec_decode_speedup", cost)
    return Spec(
        givens=(given("acceptance", "Acceptance rate α", "接受率 α", alpha, "ratio"),
                given("draft_tokens", "Draft tokens γ", "草稿 token 数 γ", gamma),
                given("cost_ratio", "Draft pass cost ÷ target pass cost c", "草稿前向耗时 ÷ 目标前向耗时 c", cost,
                      "ratio")),
        asks=(Ask(formula="spec_decode_speedup", unit="x",
                  prompt_en=f"{draft} drafts for {target}. One step costs γ draft passes and one target pass. By what "
                            "factor does speculative decoding speed up generation over plain decoding (e.g. 2.5x; "
                            "below 1 means it slows down)?",
                  prompt_zh=f"{SPEC_PAIRS_ZH.get(draft, draft)} 为 {target} 打草稿。一步的开销是 γ 次草稿前向加一次目标前向。"
                            "投机解码比普通 decode 快多少倍（例如 2.5x；小于 1 表示反而变慢）？"),),
        conventions_en=f"{SPEC_CONV_EN} Plain decoding yields one token per target pass. At batch 1 decode is "
                       "memory-bound, so a pass costs about the weight bytes it reads: c ≈ Φ_draft ÷ Φ_target (an MoE "
                       "target: its active parameters).",
        conventions_zh=f"{SPEC_CONV_ZH}普通 decode 每次目标前向产出一个 token。batch 为 1 时 decode 访存受限，一次前向的开销约等于"
                       "它读取的权重字节数：c ≈ Φ_草稿 ÷ Φ_目标（MoE 目标模型按激活参数计）。",
        world=_spec_worlds(draft, target),
    )
