"""A model served for inference, as the inference and serving templates share it.

A model served for inference, as the inference and serving templates share it: its givens (weights, KV
cache, node), the fewest GPUs that hold it, its world, the decode and capacity conventions.

Models carry their real head counts, so GQA/MQA problems pass ``n_heads`` as an
extra and the "used the query heads" misconception applies; for MHA models it
would coincide with the answer and is left out.  A model too big for one card
is served with tensor parallelism over the fewest power-of-two GPUs that hold
it, treated as one device with N× memory, bandwidth and compute.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from .. import kit
from ..hardware import DTYPE_BYTES, GPU
from ..models import Model
from ..spec import Given, given
from .model_params import nominal_phi

YES = Choice("yes", ("y", "fits", "it fits", "能", "可以", "是", "放得下", "装得下"), "能")
NO = Choice("no", ("n", "does not fit", "doesn't fit", "it does not fit", "不能", "不可以", "否", "放不下",
                   "装不下"), "不能")
YES_NO = (YES, NO)

KV_CONV_EN = ("The KV cache stores K and V for every layer: 2 × layers × n_kv_heads × d_head values per token.")
KV_CONV_ZH = "KV Cache 在每一层都存 K 和 V：每个 token 2 × 层数 × n_kv_heads × d_head 个值。"


def evaluate(name: str, **values) -> float:
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
    return evaluate("kv_bytes_per_token", layers=m.layers, n_kv_heads=m.n_kv_heads, d_head=m.d_head, bytes_per_elem=bpe)


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
    out: tuple[Given, ...] = (given("gpu", "GPU", "GPU", gpu.name if n == 1 else f"{n} × {gpu.name} (tensor parallel)",
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


SEQS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 131072)


def draw_seq(rng, m: Model) -> int:
    return rng.choice([s for s in SEQS if s <= m.max_seq])


# --------------------------------------------------------------------------- #
# Decode and prefill bounds

DECODE_CONV_EN = ("Decode is memory-bound: each step reads all the weights once plus the KV cache of every sequence "
                  "in the batch; compute and activations are ignored.")
DECODE_CONV_ZH = "Decode 为访存受限：每一步把全部权重读一遍，再读 batch 中每条序列的 KV Cache；忽略计算与激活。"


def decode_lead(m: Model, dtype: str, seq: int, w: float, kv_seq: float) -> tuple[tuple[str, ...], tuple[str, ...]]:
    kvt = kv_per_token(m, 2)
    en = (f"W = Φ × bytes = {fmt_number(nominal_phi(m))} × {DTYPE_BYTES[dtype]:g} B = {gb(w)}",
          f"KV per sequence = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} × {seq:,} = {gb(kv_seq)}")
    zh = (f"W = Φ × 字节数 = {fmt_number(nominal_phi(m))} × {DTYPE_BYTES[dtype]:g} B = {gb(w)}",
          f"每条序列的 KV = 2 × 2 B × {m.layers} × {m.n_kv_heads} × {m.d_head} × {seq:,} = {gb(kv_seq)}"
          f"（每 token {fmt_quantity(kvt, 'bytes', unit='kB')}）")
    return en, zh


# --------------------------------------------------------------------------- #
# Capacity planning (R§5.4)

CAP_CONV_EN = "Memory holds the weights and the KV cache only (activations and framework overhead ignored)."
CAP_CONV_ZH = "显存只放权重和 KV Cache（忽略激活与框架开销）。"
