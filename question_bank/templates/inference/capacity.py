"""Inference capacity-planning templates: the largest batch that fits, the GPUs a model needs.

Inference capacity-planning templates (C§4): the largest batch whose KV cache fits, the GPUs a model needs
with its KV cache, and the decode and capacity chains.
"""

from __future__ import annotations

from engine.units import round_sig

from ... import hardware, kit, models
from ...hardware import DTYPE_BYTES, GPU
from ...models import Model
from ...spec import Ask, Given, Ref, Spec, given, settled_by_hand
from ...template import template
from ..chip_givens import CONV_EN, CONV_ZH, an, peak_given
from ..inference.decode import decode_setup, draw_serving, serving_world, storable
from ..served_models import (
    CAP_CONV_EN,
    CAP_CONV_ZH,
    DECODE_CONV_EN,
    DECODE_CONV_ZH,
    KV_CONV_EN,
    KV_CONV_ZH,
    decode_lead,
    draw_seq,
    evaluate,
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


def _capacity_setup(rng):
    """A serving setup where 2 or more full sequences fit next to the weights, a count settled by hand."""
    while True:
        m, dtype, gpu, n = draw_serving(rng)
        seq = draw_seq(rng, m)
        w, kv_seq = weight_bytes(m, dtype), kv_per_token(m, 2) * seq
        free = n * gpu.memory - w
        if free >= 2 * kv_seq and settled_by_hand("max_batch_fit", {"gpu_bytes": n * gpu.memory, "weight_bytes": w,
                                                                    "kv_bytes_per_seq": kv_seq}):
            return m, dtype, gpu, n, seq, w, kv_seq


def _fit_count(gpu: GPU, n: int, w: float, kv_seq: float) -> int:
    return int(evaluate("max_batch_fit", gpu_bytes=n * gpu.memory, weight_bytes=w, kv_bytes_per_seq=kv_seq))


@template("inference.max_batch_fit", topic="inference", title="Largest batch whose KV cache fits",
          title_zh="KV Cache 能放下的最大 batch", difficulty=3, target_seconds=150)
def max_batch_fit(rng):
    m, dtype, gpu, n, seq, w, kv_seq = _capacity_setup(rng)
    lead_en, lead_zh = decode_lead(m, dtype, seq, w, kv_seq)
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
        batch, seq = rng.choice((1, 8, 16, 32, 64)), draw_seq(rng, m)
        if dtype is None:
            continue
        w = weight_bytes(m, dtype)
        kv = round_sig(evaluate("kv_cache_bytes", batch=batch, seq=seq, layers=m.layers, n_kv_heads=m.n_kv_heads,
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
        world=serving_world(m, gpu, dtype, int(evaluate("min_gpus", total_bytes=total, gpu_bytes=gpu.memory)), seq,
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
    m, dtype, gpu, n, batch, seq, w, kv_seq = decode_setup(rng, (4, 8, 16, 32, 64))
    while dtype == "int4" or not gpu.supports("bf16" if dtype == "bf16" else "fp8"):
        m, dtype, gpu, n, batch, seq, w, kv_seq = decode_setup(rng, (4, 8, 16, 32, 64))
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
