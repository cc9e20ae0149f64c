"""The template kit: givens that come from the catalogue, declared by entry and field.

A template that shows a chip's or a model's figure takes it from here instead of writing
``given("bandwidth", "Memory bandwidth", "显存带宽", gpu.bandwidth, "bandwidth", "TB/s")`` again:

    chip(gpu, "bandwidth")           # Memory bandwidth | 3.35 TB/s
    chip(gpu, "peak", dtype="fp8")   # Peak dense fp8 FLOP/s | 1979 TFLOPS
    chip(gpu, "memory", times=8)     # the memory of 8 of them
    model(m, "n_kv_heads")           # KV heads n_kv | 8

Each such given carries an :class:`Origin` (the catalogue entry, the field, the multiple), so the figure
shown is provably the data file's (``question_bank/data/*.toml``, the one definition of every figure):
``tests/unit/test_kit.py`` re-reads each origin's figure from the catalogue over every template and
seed, and checks that the entry is the chip or model the problem's world runs on.  ``drill ask --json``
shows the origin of each given (``"from": "h100_sxm.bandwidth"``).

The label, unit and kind of each field are declared once below (both languages); a template still
writes its own question, formula and world (question_bank/README.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.records import NamedTuple
from question_bank.spec import Given


class Origin(NamedTuple):
    """Where a given's value comes from: ``times`` × the field ``field`` of catalogue entry ``entry``."""

    entry: str  # the catalogue id ("h100_sxm", "llama3_70b")
    field: str  # a key of CHIP_FIELDS / MODEL_FIELDS ("bandwidth", "peak:fp8", "n_kv_heads")
    times: float = 1.0  # the multiple shown (8 GPUs' memory)

    def __str__(self) -> str:
        return f"{self.entry}.{self.field}" + (f" × {self.times:g}" if self.times != 1 else "")


class Field(NamedTuple):
    """How one catalogue field is shown as a given."""

    name: str  # the given's name (the formula input it feeds)
    label_en: str
    label_zh: str
    kind: str
    unit: Callable[[float], str | None] | str | None  # the unit shown, or a function of the value that picks it
    read: Callable[[Any], float]  # the figure, from the catalogue object


def bw_unit(bandwidth: float) -> str:
    """TB/s when the datasheet figure is a tenth of a TB/s (3.35 TB/s stays 3350 GB/s otherwise)."""
    return "TB/s" if abs(bandwidth / 1e11 - round(bandwidth / 1e11)) < 1e-9 else "GB/s"


def nominal_phi(m) -> float:
    """The parameter count as people say it: 2 significant figures (3 from 100B on): 69B for 68.98B."""
    sig = 3 if m.params >= 1e11 else 2
    return float(f"{m.params:.{sig - 1}e}")


# Chip fields (question_bank.hardware.GPU).  "peak" is per precision: chip(gpu, "peak", dtype="fp8").
CHIP_FIELDS: dict[str, Field] = {
    "memory": Field("gpu_bytes", "Memory", "显存", "bytes", "GB", lambda g: g.memory),
    "bandwidth": Field("bandwidth", "Memory bandwidth", "显存带宽", "bandwidth", bw_unit, lambda g: g.bandwidth),
    "tdp": Field("tdp", "Board power (TDP)", "板卡功耗（TDP）", "power", "W", lambda g: g.tdp),
    "node_power": Field("node_power", "System maximum power", "整机最大功率", "power", "kW", lambda g: g.node_power),
    "gpus_per_node": Field("gpus_per_node", "GPUs per system", "每套系统的 GPU 数", "count", None,
                           lambda g: g.gpus_per_node),
    "sms": Field("sms", "Streaming multiprocessors (SMs)", "流式多处理器（SM）数", "count", None, lambda g: g.sms),
    "smem_per_sm": Field("smem_per_sm", "L1 / shared memory per SM", "每个 SM 的 L1 / 共享内存", "bytes", "KiB",
                         lambda g: g.smem_per_sm),
    "host_link": Field("host_link_bandwidth", "Host link, one way", "主机链路，单向", "bandwidth", "GB/s",
                       lambda g: g.host_link),
}

# Model fields (question_bank.models.Model).
MODEL_FIELDS: dict[str, Field] = {
    "phi": Field("phi", "Parameters Φ", "参数量 Φ", "count", "params", nominal_phi),
    "layers": Field("layers", "Layers L", "层数 L", "count", None, lambda m: m.layers),
    "n_heads": Field("n_heads", "Query heads", "Query 头数", "count", None, lambda m: m.n_heads),
    "n_kv_heads": Field("n_kv_heads", "KV heads n_kv", "KV 头数 n_kv", "count", None, lambda m: m.n_kv_heads),
    "d_head": Field("d_head", "Head dimension d_head", "每头维度 d_head", "count", None, lambda m: m.d_head),
    "d_model": Field("d_model", "Hidden size d", "隐藏维度 d", "count", None, lambda m: m.d_model),
    "vocab": Field("vocab", "Vocabulary V", "词表大小 V", "count", None, lambda m: m.vocab),
}


def _peak_field(dtype: str) -> Field:
    return Field("peak_flops", f"Peak dense {dtype} FLOP/s", f"{dtype} 稠密峰值算力", "flop_rate", "TFLOPS",
                 lambda g: g.peak(dtype))


def chip_field(field: str) -> Field:
    """The :class:`Field` of ``field`` ("bandwidth", or "peak:fp8")."""
    if field.startswith("peak:"):
        return _peak_field(field.removeprefix("peak:"))
    return CHIP_FIELDS[field]


def _listed(obj, lookup) -> bool:
    """Whether ``obj`` is the catalogue's entry under its key (a hypothetical model drawn by a template is not)."""
    try:
        return lookup(obj.key) == obj
    except KeyError:
        return False


def _make(f: Field, value: float, origin: Origin | None, name: str | None, label: tuple[str, str] | None,
          unit: str | None = None) -> Given:
    unit = unit or (f.unit(value) if callable(f.unit) else f.unit)
    en, zh = label or (f.label_en, f.label_zh)
    return Given(name or f.name, en, zh, value, f.kind, unit, "", origin)


def chip(gpu, field: str, *, dtype: str | None = None, times: float = 1, name: str | None = None,
               label: tuple[str, str] | None = None, unit: str | None = None) -> Given:
    """The given of ``gpu``'s ``field`` ("memory", "bandwidth", "tdp", or "peak" with ``dtype``), ``times`` over
    (the totals of ``times`` chips); ``name``, ``label`` (en, zh) and ``unit`` replace the field's own where a
    template's formula or wording needs another."""
    from question_bank import hardware

    key = f"peak:{dtype}" if field == "peak" else field
    f = chip_field(key)
    origin = Origin(gpu.key, key, times) if _listed(gpu, hardware.get) else None
    return _make(f, times * f.read(gpu), origin, name, label, unit)


def named_peak(gpu, dtype: str = "bf16") -> Given:
    """``H100 SXM dense bf16 peak | 989 TFLOPS``: the peak labelled with the chip's name (a scenario of N chips)."""
    return chip(gpu, "peak", dtype=dtype, label=(f"{gpu.name} dense {dtype} peak", f"{gpu.name} {dtype} 稠密峰值"))


def model(m, field: str, *, name: str | None = None, label: tuple[str, str] | None = None) -> Given:
    """The given of model ``m``'s ``field`` (a key of :data:`MODEL_FIELDS`); with an origin when ``m`` is a
    catalogue entry (a template's hypothetical model shows the same label and unit, without one)."""
    from question_bank import models

    f = MODEL_FIELDS[field]
    return _make(f, f.read(m), Origin(m.key, field) if _listed(m, models.get) else None, name, label)


def shown_as(field: str, value: float) -> Given:
    """A given shown as the chip field ``field`` is ("bandwidth", "peak:fp8"), of a value that is no catalogue
    entry's (a hypothetical chip, a seed article's quoted figure): same label and unit, no origin."""
    f = chip_field(field)
    unit = f.unit(value) if callable(f.unit) else f.unit
    return Given(f.name, f.label_en, f.label_zh, value, f.kind, unit)


def figure(origin: Origin) -> float:
    """The value ``origin`` names, read afresh from the catalogue (what a given with that origin must show)."""
    from question_bank import hardware, models

    if origin.field in MODEL_FIELDS:
        return origin.times * MODEL_FIELDS[origin.field].read(models.get(origin.entry))
    return origin.times * chip_field(origin.field).read(hardware.get(origin.entry))
