"""Serving templates (issue #15, families 2, 5, 10, 11): TTFT and TPOT, the largest batch a latency target
allows, throughput against latency, quantised weights, PagedAttention and speculative decoding.

Worlds are the inference module's: dense models with their real configs, served on the fewest power-of-two
GPUs of one node that hold the weights (tensor parallelism, treated as one device with N× memory, bandwidth and
compute), at a precision the GPU has, and at context lengths within the model's.  Decode is memory-bound
(a step reads the weights once and every sequence's KV cache); prefill is compute-bound at a stated MFU.
"""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_number, fmt_quantity, round_sig

from .. import hardware, kit, models
from ..base import Ask, Ref, Spec, World, given, settled_by_hand, template
from ..hardware import DTYPE_BYTES, GPU
from ..models import Model
from .inference import (
    CAP_CONV_EN,
    CAP_CONV_ZH,
    DECODE_CONV_EN,
    DECODE_CONV_ZH,
    KV_CONV_EN,
    KV_CONV_ZH,
    YES_NO,
    _decode_lead,
    _seq,
    devices,
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
from .memory import nominal_phi
from .roofline import CONV_EN, CONV_ZH, an, peak_given


def _eval(name: str, **values) -> float:
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


def _setup(rng, *, batches=(1,), dtypes=("bf16", "fp8", "int4"), big: bool = False):
    """A dense model, weight precision, GPU, GPU count, batch and context where weights + KV fit in 90 %.

    fp8 weights only on GPUs with fp8 (the kernels compute in fp8); int4 is weight-only (dequantised to 16 bits)."""
    pool = [m for m in models.DENSE if m.params > 3e10] if big else models.DENSE
    while True:  # GPUs with bf16 (the KV cache is bf16): not the V100
        m, dtype, gpu = rng.choice(pool), rng.choice(dtypes), rng.choice(hardware.with_dtype("bf16"))
        if dtype == "fp8" and not gpu.supports("fp8"):
            continue
        w = weight_bytes(m, dtype)
        n = devices(gpu, 1.25 * w)
        batch, seq = rng.choice(batches), _seq(rng, m)
        kv_seq = kv_per_token(m, 2) * seq
        if n * gpu.memory >= 1.25 * w and w + batch * kv_seq <= 0.9 * n * gpu.memory:
            return m, dtype, gpu, n, batch, seq, w, kv_seq


def _world(m: Model, dtype: str, gpu: GPU, n: int, seq: int, batch: int) -> World:
    """Served with ``dtype`` weights (int4: weight-only, math in 16 bits) and a bf16 KV cache of ``batch`` sequences."""
    math = gpu.sixteen if dtype == "int4" else dtype
    return World(model=m, gpu=gpu, precision=math, weights=dtype, kv="bf16", n_gpus=n, tp=n, seq=seq, batch=max(1, batch),
                 holds=("weights", "kv"))


def _spec_worlds(draft: str, target: str) -> tuple[World, ...]:
    """The catalogue models a speculative-decoding pair names."""
    named = {m.name: m for m in models.MODELS + models.MOE_MODELS}
    return tuple(World(model=named[x]) for x in (draft, target) if x in named)


def _gpu_text(gpu: GPU, n: int) -> tuple[str, str]:
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
    mfu = rng.choice((0.3, 0.4, 0.45, 0.5, 0.55, 0.6))
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
        m, dtype, gpu, n, batch, seq, w, kv_seq = _setup(rng, batches=(1, 4, 8, 16, 32, 64, 128))
        if _clear("decode_step_time", {"bandwidth": n * gpu.bandwidth, "weight_bytes": w, "kv_bytes_per_seq": kv_seq,
                                       "batch": batch}):
            break
    lead_en, lead_zh = _decode_lead(m, dtype, seq, w, kv_seq)
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
        world=_world(m, dtype, gpu, n, seq, batch),
    )


TARGETS_MS = (20, 25, 30, 40, 50, 60, 75, 100)


def _tpot_batch_setup(rng):
    """Round W and KV per sequence, and a TPOT target whose batch is 2+, fits in memory and is settled by hand."""
    while True:
        m, dtype, gpu, n, _, seq, w, kv_seq = _setup(rng)
        kv_seq = round_sig(kv_seq, 3)
        bw = n * gpu.bandwidth
        target = rng.choice(TARGETS_MS) / 1000
        inputs = {"tpot_target": target, "bandwidth": bw, "weight_bytes": w, "kv_bytes_per_seq": kv_seq}
        if target * bw < w + 2 * kv_seq or target * bw / kv_seq >= 9999:  # "forgot the weights" shown in full
            continue
        b = _eval("max_batch_tpot", **inputs)
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
        world=_world(m, dtype, gpu, n, seq, int(_eval("max_batch_tpot", **inputs))),
    )


@template("serving.chain_throughput_latency", topic="serving",
          title="Chain: latency vs throughput as the batch grows",
          title_zh="追问链：batch 1 的 TPOT → batch B 的 TPOT → 吞吐 → 满足 TPOT 目标的最大 batch", difficulty=2,
          target_seconds=420, source="C§4.2, kipply2022, pope2022")
def chain_throughput_latency(rng):
    while True:  # a batch for steps 2-3 that fits, and whose TPOT no wrong method lands near
        m, dtype, gpu, n, seq, w, kv_seq, target, inputs = _tpot_batch_setup(rng)
        bw = n * gpu.bandwidth
        limit = _eval("max_batch_tpot", **inputs)
        batches = [b for b in (8, 16, 32, 64, 128) if b != limit and w + b * kv_seq <= 0.95 * n * gpu.memory
                   and _clear("decode_step_time", {"bandwidth": bw, "weight_bytes": w, "kv_bytes_per_seq": kv_seq,
                                                   "batch": b})]
        if batches:
            break
    batch = rng.choice(batches)
    tp_en, tp_zh = tp_note(gpu, n)
    name_en, name_zh = _gpu_text(gpu, n)
    t1 = _eval("decode_step_time", bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq, batch=1)
    slower = _eval("decode_step_time", bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq, batch=batch) / t1
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
        world=_world(m, dtype, gpu, n, seq, max(batch, int(limit))),
    )


def _big_serving(rng):
    """A 65B+ dense model on 8 GPUs of a node with room for 2+ full sequences, a batch settled by hand."""
    while True:
        m = rng.choice([x for x in models.DENSE if x.params > 6e10 and x.gated])
        # one NVLink node of 80 GB+ GPUs (not H100 PCIe: its NVLink bridges pair two cards only)
        gpu = rng.choice([g for g in hardware.GPUS if g.memory >= 80e9 and g.key != "h100_pcie"])
        dtype = rng.choice([d for d in ("bf16", "fp8") if gpu.supports(d)])
        n = 8
        seq = _seq(rng, m)
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
    b = int(_eval("max_batch_fit", gpu_bytes=mem, weight_bytes=w, kv_bytes_per_seq=kv_seq))
    tpot_full = _eval("decode_step_time", bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq, batch=b)
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
    slo_b = _eval("max_batch_tpot", tpot_target=target, bandwidth=bw, weight_bytes=w, kv_bytes_per_seq=kv_seq)
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
        world=_world(m, dtype, gpu, n, seq, b),
    )


# --------------------------------------------------------------------------- #
# Quantisation (family 5)

# (name en, name zh, bits, group size, scale bits, zero bits, where it comes from)
QUANT_SCHEMES = (
    ("int4, group 128, fp16 scale, symmetric (no zero point)", "int4，每组 128 个，fp16 缩放因子，对称（无零点）",
     4, 128, 16, 0),
    ("int4, group 128, fp16 scale and 4-bit zero point (GPTQ / AWQ packing)",
     "int4，每组 128 个，fp16 缩放因子加 4 位零点（常见的打包方式）", 4, 128, 16, 4),
    ("int4, group 64, fp16 scale and fp16 zero point", "int4，每组 64 个，fp16 缩放因子与 fp16 零点", 4, 64, 16, 16),
    ("int4, group 32, fp16 scale, symmetric", "int4，每组 32 个，fp16 缩放因子，对称", 4, 32, 16, 0),
    ("MXFP4: 4-bit floats, blocks of 32 sharing an 8-bit scale", "MX 格式的 4 位浮点：每 32 个共享一个 8 位缩放因子",
     4, 32, 8, 0),
    ("NF4 (QLoRA), blocks of 64 with an fp32 absmax scale", "NF4：每 64 个一个 fp32 最大绝对值缩放因子",
     4, 64, 32, 0),
    ("int3, group 128, fp16 scale and 3-bit zero point", "int3，每组 128 个，fp16 缩放因子加 3 位零点", 3, 128, 16, 3),
    ("int8, group 128, fp16 scale, symmetric", "int8，每组 128 个，fp16 缩放因子，对称", 8, 128, 16, 0),
)
QUANT_CONV_EN = ("Group quantisation: every group of g weights shares one scale (and, if asymmetric, one zero "
                 "point), so the stored bits per weight = bits + (scale bits + zero-point bits) ÷ g. Weight-only: "
                 "the kernels dequantise to 16 bits, so any GPU runs it.")
QUANT_CONV_ZH = ("分组量化：每 g 个权重共享一个缩放因子（非对称时还有一个零点），所以每个权重实际存储的位数 = 位宽 + "
                 "(缩放因子位数 + 零点位数) ÷ g。仅量化权重：kernel 会反量化回 16 位计算，任何 GPU 都能跑。")
# A group's overhead is 1.5 % (int8, group 128: 8.125 vs 8 bits) to 12.5 % of the weight (int4, group 32): graded
# within 1 %, "close" only up to 1.5 %, so an answer that leaves the scales out (4 bits for 4.125) is wrong, and the
# grader names it ("forgot the group scale"); tests/unit/test_teaching.py checks every scheme.
QUANT_TOLERANCE = 0.01
QUANT_CLOSE = 0.015
QUANT_SOURCE = "frantar2022, lin2023"


def _scheme(rng):
    name_en, name_zh, bits, g, sb, zb = rng.choice(QUANT_SCHEMES)
    return name_en, name_zh, bits, g, sb, zb, bits + (sb + zb) / g


def _scheme_givens(name_en, name_zh, bits, g, sb, zb):
    return (given("scheme", "Scheme", "量化方案", name_en, value_zh=name_zh),
            given("bits", "Bits per weight b", "每个权重的位宽 b", bits, "bits", "bit"),
            given("group_size", "Group size g", "每组权重数 g", g),
            given("scale_bits", "Scale bits per group", "每组缩放因子的位数", sb, "bits", "bit"),
            given("zero_bits", "Zero-point bits per group", "每组零点的位数", zb, "bits", "bit")
            if zb else given("zero_point", "Zero point", "零点", "none (symmetric)", value_zh="无（对称）"))


@template("serving.quant_bits", topic="serving", title="Bits per weight of a group-quantisation scheme",
          title_zh="分组量化方案的每权重位数", difficulty=1, target_seconds=60, source=QUANT_SOURCE)
def quant_bits(rng):
    name_en, name_zh, bits, g, sb, zb, _ = _scheme(rng)
    m = rng.choice(models.DENSE + models.MOE_MODELS[1:3])
    return Spec(
        givens=(given("model", "Model", "模型", m.name),) + _scheme_givens(name_en, name_zh, bits, g, sb, zb),
        asks=(Ask(formula="quant_bits_per_weight", unit="bit", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                  inputs={"bits": bits, "group_size": g, "scale_bits": sb, "zero_bits": zb},
                  prompt_en=f"{m.name}'s weights are quantised with this scheme. How many bits does each weight take "
                            "in memory, scales and zero points included?",
                  prompt_zh=f"{m.name} 的权重用这个方案量化。算上缩放因子和零点，每个权重在显存里占多少位（bit）？"),),
        conventions_en=QUANT_CONV_EN, conventions_zh=QUANT_CONV_ZH,
        world=World(model=m),
    )


def _quant_model(rng) -> Model:
    return rng.choice(models.DENSE + models.MOE_MODELS[1:3])


@template("serving.quant_memory", topic="serving", title="Memory of a quantised model",
          title_zh="量化后模型的显存", difficulty=2, target_seconds=90, source=QUANT_SOURCE)
def quant_memory(rng):
    name_en, name_zh, bits, g, sb, zb, bpw = _scheme(rng)
    m = _quant_model(rng)
    return Spec(
        givens=(given("model", "Model", "模型", m.name), params_given(m))
        + _scheme_givens(name_en, name_zh, bits, g, sb, zb),
        asks=(Ask(formula="quant_weights_bytes", unit="GB", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                  inputs={"phi": nominal_phi(m), "bits_per_weight": bpw}, extras={"bits": bits},
                  explanation=(f"bits per weight = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  explanation_zh=(f"每权重位数 = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  prompt_en=f"How much memory do {m.name}'s weights take with this scheme, scales and zero points "
                            "included, in GB?",
                  prompt_zh=f"用这个方案量化后，{m.name} 的权重（含缩放因子与零点）占多少显存（GB）？"),),
        conventions_en=f"{QUANT_CONV_EN} GB = 1e9 B, 8 bits = 1 B.", conventions_zh=f"{QUANT_CONV_ZH}GB = 1e9 B，8 bit = 1 B。",
        world=World(model=m),
    )


def _quant_decode_setup(rng):
    """A dense model decoded at a batch and context whose KV read is a real share of the step."""
    while True:
        m = rng.choice(models.DENSE)
        batch, seq = rng.choice((1, 4, 8, 16, 32)), _seq(rng, m)
        kv = round_sig(_eval("kv_cache_bytes", batch=batch, seq=seq, layers=m.layers, n_kv_heads=m.n_kv_heads,
                             d_head=m.d_head, bytes_per_elem=2), 3)
        if 0.02 < kv / weight_bytes(m, "bf16") < 3:
            return m, batch, seq, kv


@template("serving.quant_speedup", topic="serving", title="Decode speed-up from quantising the weights",
          title_zh="量化权重带来的 decode 加速", difficulty=2, target_seconds=120, source=f"{QUANT_SOURCE}, pope2022")
def quant_speedup(rng):
    name_en, name_zh, bits, g, sb, zb, bpw = _scheme(rng)
    m, batch, seq, kv = _quant_decode_setup(rng)
    return Spec(
        givens=(given("model", "Model", "模型", m.name),
                given("weight_bytes", "Weights in bf16 W", "bf16 权重 W", weight_bytes(m, "bf16"), "bytes", "GB"),
                given("bits_before", "Bits per weight before (bf16)", "量化前每权重位数（bf16）", 16, "bits", "bit"))
        + _scheme_givens(name_en, name_zh, bits, g, sb, zb)
        + (given("kv_bytes", f"KV cache read per step (batch {batch} × {seq:,} tokens, bf16)",
                 f"每步读取的 KV Cache（batch {batch} × {seq:,} token，bf16）", kv, "bytes", "GB"),),
        asks=(Ask(formula="quant_decode_speedup", unit="x", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                  inputs={"bits_before": 16, "bits_after": bpw, "weight_bytes": weight_bytes(m, "bf16"), "kv_bytes": kv},
                  extras={"bits": bits},
                  explanation=(f"bits per weight after = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  explanation_zh=(f"量化后每权重位数 = {bits} + ({sb} + {zb}) / {g} = {fmt_number(bpw)}",),
                  prompt_en=f"{m.name} decodes {batch} sequence{'s' if batch > 1 else ''} of {seq:,} tokens with bf16 "
                            "weights; you quantise only the weights with this scheme (the KV cache stays bf16). "
                            "Decode is memory-bound: by what factor does the step get faster (e.g. 2.5x)?",
                  prompt_zh=f"{m.name} 用 bf16 权重 decode {batch} 条、每条 {seq:,} token 的序列；你只用这个方案量化权重"
                            "（KV Cache 仍为 bf16）。decode 为访存受限：每一步快了多少倍（例如 2.5x）？"),),
        conventions_en=f"{QUANT_CONV_EN} {DECODE_CONV_EN} GB = 1e9 B, 8 bits = 1 B.",
        conventions_zh=f"{QUANT_CONV_ZH}{DECODE_CONV_ZH}GB = 1e9 B，8 bit = 1 B。",
        world=World(model=m, seq=seq, batch=batch),
    )


@template("serving.chain_quantise", topic="serving",
          title="Chain: quantise: bits → memory → fits → speed-up",
          title_zh="追问链：每权重位数 → 量化后显存 → 单卡放得下？ → decode 加速", difficulty=2, target_seconds=420,
          source=f"{QUANT_SOURCE}, pope2022")
def chain_quantise(rng):
    while True:
        name_en, name_zh, bits, g, sb, zb, bpw = _scheme(rng)
        m, batch, seq, kv = _quant_decode_setup(rng)
        gpu = rng.choice(hardware.with_dtype("bf16"))  # the KV cache stays bf16
        wq = _eval("quant_weights_bytes", phi=nominal_phi(m), bits_per_weight=bpw)
        if abs(wq / gpu.memory - 1) > 0.08 and bits <= 4:
            break
    fits = wq <= gpu.memory
    w16 = weight_bytes(m, "bf16")
    cmp_en = f"  {gb(wq)} {'≤' if fits else '>'} {gb(gpu.memory)} of one {gpu.name}: {'fits' if fits else 'does not fit'}"
    cmp_zh = f"  {gb(wq)} {'≤' if fits else '>'} 一张 {gpu.name} 的 {gb(gpu.memory)}：{'放得下' if fits else '放不下'}"
    bf16_en = f"  (in bf16 the same weights take 2 B × {fmt_number(nominal_phi(m))} = {gb(w16)})"
    bf16_zh = f"  （同样的权重用 bf16 要 2 B × {fmt_number(nominal_phi(m))} = {gb(w16)}）"
    if fits:
        fit_take = (f"at {fmt_number(bpw)} bits {m.name} drops from {gb(w16)} to {gb(wq)} and fits one {gpu.name}, with "
                    f"{gb(gpu.memory - wq)} left for the KV cache and activations: check that room before promising a "
                    "batch.",
                    f"量化到 {fmt_number(bpw)} 位后，{m.name} 的权重从 {gb(w16)} 降到 {gb(wq)}，一张 {gpu.name} 放得下，"
                    f"还剩 {gb(gpu.memory - wq)} 给 KV Cache 和激活：承诺 batch 之前先算这部分余量。")
    else:
        fit_take = (f"even at {fmt_number(bpw)} bits the weights need {gb(wq)}, more than one {gpu.name}'s "
                    f"{gb(gpu.memory)}: split them over GPUs (tensor parallelism) or go to fewer bits.",
                    f"即使量化到 {fmt_number(bpw)} 位，权重也要 {gb(wq)}，超过一张 {gpu.name} 的 {gb(gpu.memory)}："
                    "要么用张量并行切到多张 GPU 上，要么用更少的位数。")
    return Spec(
        scenario_en=f"You want to serve {m.name} on {an(gpu.name)} with {name_en.split(',')[0]} weights.",
        scenario_zh=f"你想在 {gpu.name} 上用 {name_zh.split('，')[0]} 权重部署 {m.name}。",
        givens=(given("model", "Model", "模型", m.name), params_given(m), given("gpu", "GPU", "GPU", gpu.name),
                kit.chip(gpu, "memory", label=("GPU memory", "GPU 显存")))
        + _scheme_givens(name_en, name_zh, bits, g, sb, zb)
        + (given("kv_bytes", f"KV cache read per step (batch {batch} × {seq:,} tokens, bf16)",
                 f"每步读取的 KV Cache（batch {batch} × {seq:,} token，bf16）", kv, "bytes", "GB"),),
        asks=(
            Ask(formula="quant_bits_per_weight", unit="bit", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                inputs={"bits": bits, "group_size": g, "scale_bits": sb, "zero_bits": zb},
                prompt_en="How many bits does each weight take, scales and zero points included?",
                prompt_zh="算上缩放因子和零点，每个权重占多少位（bit）？"),
            Ask(formula="quant_weights_bytes", unit="GB", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                inputs={"phi": nominal_phi(m), "bits_per_weight": Ref(0)}, extras={"bits": bits},
                prompt_en="How much memory do the quantised weights take, in GB?",
                prompt_zh="量化后的权重占多少显存（GB）？"),
            Ask(prompt_en=f"Do the quantised weights alone fit in one {gpu.name}? Answer yes or no.",
                prompt_zh=f"只看量化后的权重，一张 {gpu.name} 放得下吗？请回答「能」或「不能」。",
                choices=YES_NO, answer="yes" if fits else "no", explanation=(cmp_en, bf16_en),
                explanation_zh=(cmp_zh, bf16_zh), takeaway=fit_take[0], takeaway_zh=fit_take[1],
                card_formulas=("quant_weights_bytes",)),
            Ask(formula="quant_decode_speedup", unit="x", tolerance=QUANT_TOLERANCE, close=QUANT_CLOSE,
                inputs={"bits_before": 16, "bits_after": Ref(0), "weight_bytes": w16, "kv_bytes": kv},
                extras={"bits": bits},
                prompt_en="Against bf16 weights (16 bits), by what factor does a memory-bound decode step get faster "
                          "at this batch and context (the KV cache stays bf16; e.g. 2.5x)?",
                prompt_zh="和 bf16 权重（16 位）相比，在这个 batch 和上下文下，访存受限的 decode 步快了多少倍"
                          "（KV Cache 仍为 bf16；例如 2.5x）？"),
        ),
        conventions_en=f"{QUANT_CONV_EN} {DECODE_CONV_EN} GB = 1e9 B, 8 bits = 1 B.",
        conventions_zh=f"{QUANT_CONV_ZH}{DECODE_CONV_ZH}GB = 1e9 B，8 bit = 1 B。",
        world=World(model=m, gpu=gpu, kv="bf16", seq=seq, batch=batch, holds=("weights",), fit_is_asked=True),
    )


# --------------------------------------------------------------------------- #
# PagedAttention (family 10)

PAGED_CONV_EN = ("PagedAttention (vLLM): the KV cache is split into fixed blocks of b tokens; a sequence holds "
                 "ceil(S ÷ b) whole blocks, so only its last block can be partly empty.")
PAGED_CONV_ZH = ("PagedAttention（vLLM）：KV Cache 被切成每块 b 个 token 的固定块；一条序列占 ceil(S ÷ b) 个整块，"
                 "所以只有最后一块可能没填满。")
BLOCKS = (8, 16, 32)  # vLLM's block sizes (16 by default)


def _paged_seq(rng, b: int, limit: int = 131072) -> int:
    """A sequence length of 3 significant figures (block counts exact by hand) whose last block is partly filled,
    and not half full (S mod b ≠ b/2)."""
    while True:
        s = int(round_sig(rng.randrange(b + 1, min(limit, 32768)), 3))
        if s % b and 2 * (s % b) != b and s <= limit:
            return s


@template("serving.paged_blocks", topic="serving", title="PagedAttention blocks of a sequence",
          title_zh="PagedAttention 中一条序列占用的块数", difficulty=1, target_seconds=45, source="kwon2023")
def paged_blocks(rng):
    b = rng.choice(BLOCKS)
    s = _paged_seq(rng, b)
    return Spec(
        givens=(given("seq", "Tokens in the sequence S", "序列的 token 数 S", s),
                given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(Ask(formula="paged_kv_blocks", unit="", integer=True,
                  prompt_en="How many KV blocks does this sequence hold?",
                  prompt_zh="这条序列占用多少个 KV 块？"),),
        conventions_en=PAGED_CONV_EN, conventions_zh=PAGED_CONV_ZH,
    )


@template("serving.paged_waste", topic="serving", title="PagedAttention waste of a sequence",
          title_zh="PagedAttention 中一条序列浪费的槽位", difficulty=1, target_seconds=45, source="kwon2023")
def paged_waste(rng):
    b = rng.choice(BLOCKS)
    s = _paged_seq(rng, b)
    return Spec(
        givens=(given("seq", "Tokens in the sequence S", "序列的 token 数 S", s),
                given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(Ask(formula="paged_kv_waste_tokens", unit="",
                  prompt_en="How many token slots does this sequence reserve but leave empty (its waste)?",
                  prompt_zh="这条序列预留了但空着的 token 槽位有多少个（即浪费）？"),),
        conventions_en=PAGED_CONV_EN, conventions_zh=PAGED_CONV_ZH,
    )


def _paged_setup(rng):
    """A served model, its KV budget (memory − weights), a sequence length and a count settled by hand."""
    while True:
        m, dtype, gpu, n, _, _, w, _ = _setup(rng)
        b = rng.choice(BLOCKS)
        s = _paged_seq(rng, b, m.max_seq)
        kvt = kv_per_token(m, 2)
        budget = n * gpu.memory - w
        inputs = {"kv_budget": budget, "kv_bytes_per_token": kvt, "seq": s, "block_size": b}
        count = _eval("paged_max_seqs", **inputs)
        if count >= 2 and settled_by_hand("paged_max_seqs", inputs):
            return m, dtype, gpu, n, w, b, s, kvt, budget, inputs


@template("serving.paged_capacity", topic="serving", title="Sequences a KV budget holds with PagedAttention",
          title_zh="PagedAttention 下 KV 预算能放下的序列数", difficulty=3, target_seconds=150, source="kwon2023")
def paged_capacity(rng):
    m, dtype, gpu, n, w, b, s, kvt, budget, inputs = _paged_setup(rng)
    tp_en, tp_zh = tp_note(gpu, n)
    lead_en = (f"KV per token = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} = "
               f"{fmt_quantity(kvt, 'bytes', unit='kB')}",)
    lead_zh = (f"每 token 的 KV = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} = "
               f"{fmt_quantity(kvt, 'bytes', unit='kB')}",)
    return Spec(
        givens=(model_given(m),) + kv_givens(m) + (
            given("kv_budget", "Memory left for the KV cache", "留给 KV Cache 的显存", budget, "bytes", "GB"),
            given("seq", "Tokens per sequence S", "每条序列的 token 数 S", s),
            given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(Ask(formula="paged_max_seqs", unit="", integer=True, inputs=inputs, explanation=lead_en,
                  explanation_zh=lead_zh,
                  prompt_en=f"{m.name} runs with {dtype} weights and a bf16 KV cache on "
                            f"{_gpu_text(gpu, n)[0]}.{tp_en} How many sequences of {s:,} tokens does the KV budget "
                            "hold at once (a whole number)?",
                  prompt_zh=f"{m.name} 以 {dtype} 权重、bf16 KV Cache 运行在 {_gpu_text(gpu, n)[1]} 上。{tp_zh}"
                            f"这份 KV 预算能同时放下多少条 {s:,} token 的序列（整数）？"),),
        conventions_en=f"{CONV_EN} kB = 1e3 B. {KV_CONV_EN} {PAGED_CONV_EN}",
        conventions_zh=f"{CONV_ZH}kB = 1e3 B。{KV_CONV_ZH}{PAGED_CONV_ZH}",
        world=_world(m, dtype, gpu, n, s, int(_eval("paged_max_seqs", **inputs))),
    )


@template("serving.chain_paged", topic="serving",
          title="Chain: PagedAttention vs full preallocation",
          title_zh="追问链：每 token 的 KV → 每条序列的块数 → 分页能放的序列 → 预分配能放的序列", difficulty=3,
          target_seconds=420, source="kwon2023")
def chain_paged(rng):
    while True:
        m, dtype, gpu, n, w, b, s, kvt, budget, inputs = _paged_setup(rng)
        mem = n * gpu.memory
        prealloc = {"gpu_bytes": mem, "weight_bytes": w, "kv_bytes_per_seq": m.max_seq * kvt}
        if (s < m.max_seq / 2 and _eval("max_batch_fit", **prealloc) >= 1
                and settled_by_hand("max_batch_fit", prealloc)):
            break
    tp_en, tp_zh = tp_note(gpu, n)
    name_en, name_zh = _gpu_text(gpu, n)
    paged, full = int(_eval("paged_max_seqs", **inputs)), int(_eval("max_batch_fit", **prealloc))
    reserve = (f"{m.max_seq:,} × {fmt_quantity(kvt, 'bytes', unit='kB')} = {gb(m.max_seq * kvt)}")
    return Spec(
        scenario_en=f"{m.name} with {dtype} weights and a bf16 KV cache on {name_en}.{tp_en} Requests average "
                    f"{s:,} tokens, but the model's context is {m.max_seq:,}. How much does paging the KV cache buy?",
        scenario_zh=f"{m.name}，权重 {dtype}，KV Cache bf16，部署在 {name_zh} 上。{tp_zh}请求平均 {s:,} 个 token，但模型的上下文"
                    f"长度是 {m.max_seq:,}。把 KV Cache 分页能多放多少请求？",
        givens=(model_given(m),) + kv_givens(m) + (
            given("bytes_per_elem", "KV bytes per element (bf16)", "KV 每元素字节数（bf16）", 2, "bytes"),
            given("gpu_bytes", "Memory" + (" (all GPUs)" if n > 1 else ""), "显存" + ("（全部 GPU）" if n > 1 else ""),
                  mem, "bytes", "GB"),
            given("weight_bytes", f"Weights ({dtype})", f"权重（{dtype}）", w, "bytes", "GB"),
            given("seq", "Tokens per request S", "每个请求的 token 数 S", s),
            given("max_seq", "Model context length", "模型上下文长度", m.max_seq),
            given("block_size", "Block size b (tokens)", "块大小 b（token）", b)),
        asks=(
            Ask(formula="kv_bytes_per_token", unit="kB", extras=heads_extra(m),
                prompt_en="How many bytes of KV cache does one token take (all layers), in kB?",
                prompt_zh="一个 token 的 KV Cache（所有层）占多少字节（kB）？"),
            Ask(formula="paged_kv_blocks", unit="", integer=True, inputs={"seq": s, "block_size": b},
                prompt_en="How many KV blocks does one request hold?", prompt_zh="一个请求占多少个 KV 块？"),
            Ask(formula="paged_max_seqs", unit="", integer=True,
                inputs={"kv_budget": budget, "kv_bytes_per_token": Ref(0), "seq": s, "block_size": b},
                explanation=(f"KV budget = memory − weights = {gb(mem)} − {gb(w)} = {gb(budget)}",),
                explanation_zh=(f"KV 预算 = 显存 − 权重 = {gb(mem)} − {gb(w)} = {gb(budget)}",),
                prompt_en="With paging, how many such requests fit in the memory left after the weights (a whole number)?",
                prompt_zh="分页后，除去权重剩下的显存能同时放下多少个这样的请求（整数）？"),
            Ask(formula="max_batch_fit", unit="", integer=True,
                inputs={"gpu_bytes": mem, "weight_bytes": w, "kv_bytes_per_seq": m.max_seq * kvt},
                explanation=(f"KV reserved per request = full context × KV/token = {reserve}",),
                explanation_zh=(f"每个请求预留的 KV = 完整上下文 × 每 token 的 KV = {reserve}",),
                takeaway=f"reserving the full context fits {full} requests, paging fits {paged} "
                         f"({fmt_number(paged / full, 3)}×): the memory was going to slots requests never fill, and "
                         "PagedAttention hands it to more requests instead.",
                takeaway_zh=f"按完整上下文预留只能放 {full} 个请求，分页能放 {paged} 个（{fmt_number(paged / full, 3)} 倍）："
                            "显存原本都给了请求根本用不到的槽位，PagedAttention 把它们分给了更多请求。",
                prompt_en=f"Without paging, a server that reserves the full {m.max_seq:,}-token context for every request "
                          "fits how many requests (a whole number)?",
                prompt_zh=f"不分页时，如果给每个请求都预留完整的 {m.max_seq:,} token 上下文，能放下多少个请求（整数）？"),
        ),
        conventions_en=f"{CONV_EN} kB = 1e3 B. {KV_CONV_EN} {PAGED_CONV_EN} {CAP_CONV_EN}",
        conventions_zh=f"{CONV_ZH}kB = 1e3 B。{KV_CONV_ZH}{PAGED_CONV_ZH}{CAP_CONV_ZH}",
        world=(_world(m, dtype, gpu, n, s, int(_eval("paged_max_seqs", **inputs))), _world(m, dtype, gpu, n, m.max_seq, int(_eval("max_batch_fit", **prealloc)))),
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
