"""The catalogue as data: accelerators, interconnects and models in validated TOML files.

The built-in files are ``question_bank/data/accelerators.toml``, ``interconnects.toml`` and
``models.toml`` (arrays of tables ``[[accelerators]]``, ``[[links]]``, ``[[models]]``; each file's
header documents its fields).  A user adds accelerators and models in ``<saves>/catalogue/*.toml``,
same layout (:func:`load_user`).  Every entry is checked field by field on load (:func:`validate`):
type, unit range, positive, precision support consistent with the peaks, dense (not 2:4-sparse)
figures; a problem is one :class:`CatalogueError` naming the file, the entry and the field.

Start-up: :mod:`question_bank.hardware` and :mod:`question_bank.models` ask for the built-in
entries only when a record is first needed, and those come from a cache
(:mod:`question_bank.catalogue_cache`), so this module is imported, and the TOML parsed and
validated (about 15 ms), once per change of the files.

Dense, not sparse: datasheets print tensor figures "with sparsity" (2:4 structured sparsity, twice
the dense figure) beside or instead of the dense ones; a problem computed from a sparse figure is
off by 2x.  The validator refuses one by three rules (:func:`_check_dense`):

1. a peak per watt of TDP above what any shipping part reaches dense: 2.6 TFLOPS/W at 16 bits
   (B200: 2.25, the densest), 5.2 at fp8, 15 at fp4 (B300: 12.7), 0.6 at fp32.  The 2:4 figures of
   H100, H200, B200, B300 and MI300X are all above (H100 SXM bf16 1,979 TFLOPS at 700 W: 2.8);
2. a lower precision is never slower: fp32 <= fp16/bf16 <= fp8 <= fp4;
3. an entry that names a built-in chip (same id or name) and gives twice its dense peak at a
   precision is given the sparse figure (this catches the A100's 624 at 400 W, under rule 1's bound).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.langs import EN
from engine.messages import Twin

from .data import BUILTIN_FILES, GROUPS

# User files are user input: bounded before they are parsed.
MAX_USER_BYTES = 1_000_000
MAX_USER_ENTRIES = 200
USER_SECTIONS = ("accelerators", "models")

# Precisions an accelerator may list (the formats its math runs in) and those with a peak figure.
PRECISIONS = ("fp32", "tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8", "int4")
PEAK_FIELDS = {"fp32": "fp32_tflops", "fp16": "fp16_tflops", "bf16": "bf16_tflops", "fp8": "fp8_tflops",
               "fp4": "fp4_tflops"}
# Rule 1 of the dense check: the most dense TFLOPS per watt of TDP a part reaches, per precision.
MAX_TFLOPS_PER_W = {"fp32": 0.6, "fp16": 2.6, "bf16": 2.6, "fp8": 5.2, "fp4": 15.0}
# The template pools an entry may join (its ``pools``); documented in the data files' headers.
POOLS = {"accelerators": ("general", "fp4", "rack", "tpu", "export", "scale_up"),
         "models": ("general", "moe", "megatron", "few_active", "long_context")}

_ID = re.compile(r"[a-z0-9][a-z0-9_.-]{0,47}")


_COLON = Twin(": ", "：")  # between the place and the reason


class CatalogueError(ValueError):
    """One problem with a catalogue file: the file, the entry (section, index, id) and field, and why."""

    def __init__(self, path: Path | str, reason_en: str, reason_zh: str, *, section: str = "", index: int | None = None,
                 entry_id: str = "", field: str = "") -> None:
        self.path, self.section, self.index, self.entry_id, self.field = str(path), section, index, entry_id, field
        self.reason_en, self.reason_zh = reason_en, reason_zh
        super().__init__(self.text(EN))

    def where(self, lang: str = EN) -> str:
        """``file: accelerators[3] (my_gpu): field bf16_tflops`` (Chinese: ``accelerators 第 3 项``)."""
        parts = [self.path]
        if self.section:
            ident = f" ({self.entry_id})" if self.entry_id else ""
            if self.index is None:
                parts.append(f"{self.section}{ident}")
            else:
                n = self.index + 1
                parts.append(Twin(f"{self.section}[{n}]{ident}", f"{self.section} 第 {n} 项{ident}").text(lang))
        if self.field:
            parts.append(Twin(f"field {self.field}", f"字段 {self.field}").text(lang))
        return _COLON.text(lang).join(parts)

    def text(self, lang: str = EN) -> str:
        reason = Twin(self.reason_en, self.reason_zh).text(lang)
        return f"{self.where(lang)}{_COLON.text(lang)}{reason}"

    def __str__(self) -> str:
        return self.text(EN)


# --------------------------------------------------------------------------- #
# The schema: each field's type and range.  Units are in the names (see the data files' headers).

class FieldKind(StrEnum):
    """The type of a catalogue field's value, as the data files' schema names it."""

    STR = "str"  # a line of text
    INT = "int"  # a whole number, lo <= x <= hi
    NUMBER = "number"  # a normal (not subnormal) finite number, lo <= x <= hi
    BOOL = "bool"
    STRINGS = "strings"  # a list of short names
    TABLE = "table"  # field = "source"
    RUN = "run"  # {tp, pp, micro_batch}


class Field:
    """One field's type (a :class:`FieldKind`), whether it is required, and its
    range lo <= x <= hi.  A figure's lo is the least a real part could have in the field's unit, so a figure
    in another unit (``memory_gb = 0.08`` for 80 GB) or a tiny one (``5e-324``) is refused, not divided by.
    (A plain class: a NamedTuple costs more to define at import than this module's whole load.)"""

    __slots__ = ("kind", "required", "lo", "hi", "unit")

    def __init__(self, kind: FieldKind, required: bool = False, lo: float = 0.0, hi: float = math.inf,
                 unit: str = "") -> None:
        self.kind, self.required, self.lo, self.hi, self.unit = kind, required, lo, hi, unit


def _n(lo: float, hi: float, unit: str, required: bool = False) -> Field:
    return Field(FieldKind.NUMBER, required, lo, hi, unit)


def _i(hi: float, required: bool = True, lo: float = 1) -> Field:
    return Field(FieldKind.INT, required, lo, hi)


COMMON = {"id": Field(FieldKind.STR, True), "name": Field(FieldKind.STR, True), "source": Field(FieldKind.STR, True),
          "note": Field(FieldKind.STR), "sources": Field(FieldKind.TABLE), "pools": Field(FieldKind.STRINGS)}
SCHEMA: dict[str, dict[str, Field]] = {
    "links": {**COMMON, "family": Field(FieldKind.STR, True), "one_way_gbs": _n(0.1, 1e5, "GB/s", True),
              "quoted": Field(FieldKind.STR, True)},
    "accelerators": {
        **COMMON, "vendor": Field(FieldKind.STR, True),
        "memory_gb": _n(1, 1e5, "GB", True), "memory_type": Field(FieldKind.STR),
        "memory_bandwidth_tbs": _n(0.01, 1000, "TB/s", True),
        "fp32_tflops": _n(0.1, 1e6, "TFLOPS"), "fp16_tflops": _n(0.1, 1e6, "TFLOPS"),
        "bf16_tflops": _n(0.1, 1e6, "TFLOPS"), "fp8_tflops": _n(0.1, 1e6, "TFLOPS"), "fp4_tflops": _n(0.1, 1e6, "TFLOPS"),
        "int8_tops": _n(0.1, 1e6, "TOPS"), "precisions": Field(FieldKind.STRINGS),
        "scale_up_link": Field(FieldKind.STR), "scale_up_bandwidth_gbs": _n(1, 1e6, "GB/s"),
        "scale_up_bidirectional": Field(FieldKind.BOOL), "scale_up_domain": _i(1e6, False),
        "scale_out_nic_gbps": _n(1, 1e5, "Gb/s"),
        "tdp_w": _n(1, 1e5, "W"),
        "node_power_kw": _n(0.1, 1e4, "kW"), "gpus_per_node": _i(1e6, False), "sm_count": _i(1e5, False),
        "smem_per_sm_kib": _n(1, 1e5, "KiB"), "host_link_gbs": _n(1, 1e5, "GB/s"),
    },
    "ranges": {
        "id": Field(FieldKind.STR, True), "name": Field(FieldKind.STR, True), "source": Field(FieldKind.STR, True),
        "note": Field(FieldKind.STR),
        "low": _n(-1e15, 1e15, "", True), "high": _n(-1e15, 1e15, "", True), "typical": _n(-1e15, 1e15, ""),
        "unit": Field(FieldKind.STR, True), "as_of": Field(FieldKind.STR, True),
        "data_date": Field(FieldKind.STR), "confidence": Field(FieldKind.STR),
    },
    "models": {
        **COMMON,
        "params_total": _n(1, 1e15, "parameters", True), "params_active": _n(1, 1e15, "parameters"),
        "layers": _i(10_000), "d_model": _i(1e6), "n_heads": _i(10_000), "n_kv_heads": _i(10_000),
        "d_head": _i(100_000), "ffn": _i(1e7, False), "ffn_expert": _i(1e7, False),
        "n_experts": _i(100_000, False), "n_shared_experts": _i(1000, False, 0), "first_dense_layers": _i(10_000, False, 0),
        "moe_layer_step": _i(1000, False), "top_k": _i(1000, False), "vocab": _i(1e8), "context": _i(1e9),
        "attention": Field(FieldKind.STR, True), "kv_lora_rank": _i(1e6, False), "rope_dim": _i(1e6, False),
        "q_lora_rank": _i(1e6, False), "qk_nope_head_dim": _i(1e6, False), "v_head_dim": _i(1e6, False),
        "sliding_window": _i(1e9, False), "sliding_window_layers": Field(FieldKind.STR),
        "sliding_window_pattern": Field(FieldKind.STR),
        "chunked_attention": _i(1e9, False), "attention_layer_pattern": Field(FieldKind.STR),
        "gated": Field(FieldKind.BOOL, True), "tied_embeddings": Field(FieldKind.BOOL), "norm": Field(FieldKind.STR),
        "bias": Field(FieldKind.BOOL),
        "dropout": Field(FieldKind.BOOL), "positions": Field(FieldKind.STR), "korthikanti_run": Field(FieldKind.RUN),
    },
}
# System and chip-structure figures a built-in entry must source (the templates show them as givens)
SOURCED = ("node_power_kw", "gpus_per_node", "sm_count", "smem_per_sm_kib", "host_link_gbs")
# Ethernet and InfiniBand port speeds a GPU's scale-out NIC runs at (IEEE 802.3; IBTA EDR, HDR, NDR, XDR), Gb/s
NIC_LINE_RATES = (100.0, 200.0, 400.0, 800.0, 1600.0)
CHOICES = {("links", "family"): ("nvlink", "infiniband", "roce", "pcie", "ici", "xgmi", "ethernet"),
           ("models", "attention"): ("mha", "mqa", "gqa", "mla"),
           ("models", "norm"): ("RMSNorm", "LayerNorm"), ("ranges", "confidence"): ("high", "medium", "low"),
           ("models", "positions"): ("RoPE", "learned", "none")}
MAX_TEXT = {"id": 48, "name": 80, "vendor": 40, ("ranges", "name"): 200}
MAX_TEXT_DEFAULT = 2000

_KIND_EN = {FieldKind.STR: "text", FieldKind.INT: "a whole number", FieldKind.NUMBER: "a number",
            FieldKind.BOOL: "true or false", FieldKind.STRINGS: "a list of texts",
            FieldKind.TABLE: "a table of field = \"source\"", FieldKind.RUN: "a table {tp, pp, micro_batch}"}
_KIND_ZH = {FieldKind.STR: "文本", FieldKind.INT: "整数", FieldKind.NUMBER: "数值", FieldKind.BOOL: "true 或 false",
            FieldKind.STRINGS: "文本列表", FieldKind.TABLE: "“字段 = 出处”的表", FieldKind.RUN: "{tp, pp, micro_batch} 表"}


def _control(text: str) -> str | None:
    """The first control character (C0, DEL, C1) or lone surrogate in ``text``, or None."""
    for c in text:
        o = ord(c)
        if o < 0x20 or 0x7F <= o < 0xA0 or 0xD800 <= o < 0xE000:
            return repr(c)
    return None


class _Entry:
    """Validates one entry (a dict read from TOML or JSON); raises CatalogueError naming it."""

    def __init__(self, path: str, section: str, index: int, raw: Any, user: bool, known: list[dict]) -> None:
        self.path, self.section, self.index, self.user, self.known = path, section, index, user, known
        self.raw = raw
        self.id: str = raw["id"] if isinstance(raw, dict) and isinstance(raw.get("id"), str) else ""
        if _control(self.id or ""):
            self.id = ""

    def fail(self, field: str, en: str, zh: str) -> CatalogueError:
        return CatalogueError(self.path, en, zh, section=self.section, index=self.index, entry_id=self.id[:48],
                              field=field)

    def check(self) -> dict:
        if not isinstance(self.raw, dict):
            raise self.fail("", f"each entry must be a table ([[{self.section}]]), not {type(self.raw).__name__}",
                            f"每一项都必须是一个表（[[{self.section}]]），不能是 {type(self.raw).__name__}")
        schema = SCHEMA[self.section]
        out: dict[str, Any] = {}
        for key, value in self.raw.items():
            if key not in schema:
                known = ", ".join(schema)
                raise self.fail(str(key)[:60], f"unknown field (the fields of {self.section}: {known})",
                                f"未知字段（{self.section} 的字段：{known}）")
            if value is None:  # JSON's null: the field is absent
                continue
            out[key] = self._value(key, schema[key], value)
        for key, f in schema.items():
            if f.required and key not in out:
                raise self.fail(key, "is missing (a required field)", "缺失（必填字段）")
        if not _ID.fullmatch(out["id"]):
            raise self.fail("id", "must be 1-48 lowercase letters, digits, '_', '.' or '-', starting with a letter "
                            "or digit", "必须是 1-48 个小写字母、数字、'_'、'.' 或 '-'，以字母或数字开头")
        for (section, key), allowed in CHOICES.items():
            if section == self.section and key in out and out[key] not in allowed:
                raise self.fail(key, f"must be one of {', '.join(allowed)}", f"必须是 {', '.join(allowed)} 之一")
        if "sources" in out:
            for key in out["sources"]:
                if key not in schema or key in COMMON:
                    raise self.fail("sources", f"names {key!r}, which is not a figure of this entry",
                                    f"列出了 {key!r}，它不是本项的数据字段")
                if key not in out:
                    raise self.fail("sources", f"gives a source for {key}, which the entry does not give",
                                    f"给了 {key} 的出处，但本项没有这个字段")
        if "pools" in out:
            if self.user:
                raise self.fail("pools", "is for built-in entries: your own entries are drawn when you choose "
                                "them (drill practice --hardware ID)", "只用于内置条目：自己的条目在选用时出题"
                                "（drill practice --hardware ID）")
            for p in out["pools"]:
                if p not in POOLS.get(self.section, ()):
                    raise self.fail("pools", f"unknown pool {p!r} (one of {', '.join(POOLS[self.section])})",
                                    f"未知题池 {p!r}（可选：{', '.join(POOLS[self.section])}）")
        getattr(self, f"_rules_{self.section}")(out)
        return out

    def _value(self, key: str, f: Field, value: Any) -> Any:
        want_en, want_zh = _KIND_EN[f.kind], _KIND_ZH[f.kind]
        bad = self.fail(key, f"must be {want_en}, not {_shown(value)}", f"必须是{want_zh}，而不是 {_shown(value)}")
        if f.kind == FieldKind.STR:
            if not isinstance(value, str):
                raise bad
            c = _control(value)
            if c:
                raise self.fail(key, f"contains the control character {c}", f"含有控制字符 {c}")
            most = MAX_TEXT.get((self.section, key)) or MAX_TEXT.get(key, MAX_TEXT_DEFAULT)
            if not value.strip() or len(value) > most:
                raise self.fail(key, f"must be 1-{most} characters", f"必须是 1-{most} 个字符")
            return value
        if f.kind == FieldKind.BOOL:
            if not isinstance(value, bool):
                raise bad
            return value
        if f.kind in (FieldKind.INT, FieldKind.NUMBER):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise bad
            if f.kind == FieldKind.INT and not (isinstance(value, int)
                                                or (math.isfinite(value) and value == int(value))):
                raise bad
            if not math.isfinite(value):
                raise self.fail(key, "must be a finite number", "必须是有限的数")
            if f.kind == FieldKind.INT:
                value = int(value)
                if not f.lo <= value <= f.hi:
                    raise self.fail(key, f"must be between {f.lo:g} and {f.hi:g}, not {_shown(value)}",
                                    f"必须在 {f.lo:g} 到 {f.hi:g} 之间，而不是 {_shown(value)}")
                return value
            if value != 0 and abs(value) < sys.float_info.min:  # subnormal: no real figure, and 1/x is infinite
                raise self.fail(key, f"must be a normal number, not the subnormal {_shown(value)}",
                                f"必须是正规数，而不是次正规数 {_shown(value)}")
            if not f.lo <= value <= f.hi:
                unit = f" {f.unit}" if f.unit else ""
                if f.lo > 0:
                    raise self.fail(key, f"must be positive, from {f.lo:g} to {f.hi:g}{unit}, not {_shown(value)}",
                                    f"必须为正，在 {f.lo:g} 到 {f.hi:g}{unit} 之间，而不是 {_shown(value)}")
                raise self.fail(key, f"must be from {f.lo:g} to {f.hi:g}{unit}, not {_shown(value)}",
                                f"必须在 {f.lo:g} 到 {f.hi:g}{unit} 之间，而不是 {_shown(value)}")
            return float(value) if isinstance(value, float) else value
        if f.kind == FieldKind.STRINGS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(value) > 50:
                raise bad
            for v in value:
                if _control(v) or not v or len(v) > 48:
                    raise self.fail(key, f"has an entry that is not a short name: {_shown(v)}",
                                    f"有一项不是简短名称：{_shown(v)}")
            if len(set(value)) != len(value):
                raise self.fail(key, "lists a name twice", "有重复的名称")
            return list(value)
        if f.kind == FieldKind.TABLE:
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise bad
            for k, v in value.items():
                if _control(k) or _control(v) or not v.strip() or len(v) > MAX_TEXT_DEFAULT:
                    raise self.fail(f"sources.{k}"[:60], "must be a readable text of 1-2000 characters",
                                    "必须是 1-2000 个字符的可读文本")
            return dict(value)
        if f.kind == FieldKind.RUN:
            if not isinstance(value, dict) or set(value) != {"tp", "pp", "micro_batch"} or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100_000 for v in value.values()):
                raise bad
            return dict(value)
        raise AssertionError(f.kind)

    # -- accelerators ------------------------------------------------------ #

    def _rules_links(self, e: dict) -> None:
        pass

    def _rules_ranges(self, e: dict) -> None:
        if not re.fullmatch(r"(19|20)\d\d(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?", e["as_of"]):
            raise self.fail("as_of", "must be a date: YYYY, YYYY-MM or YYYY-MM-DD", "必须是日期：YYYY、YYYY-MM 或 YYYY-MM-DD")
        if e["low"] > e["high"]:
            raise self.fail("low", f"{e['low']:g} is above high ({e['high']:g})", f"{e['low']:g} 高于 high（{e['high']:g}）")
        if "typical" in e and not e["low"] <= e["typical"] <= e["high"]:
            raise self.fail("typical", f"{e['typical']:g} is outside [low, high]", f"{e['typical']:g} 不在 [low, high] 之内")

    def _rules_accelerators(self, e: dict) -> None:
        peaks = {p: e[f] for p, f in PEAK_FIELDS.items() if f in e}
        if "fp16" not in peaks and "bf16" not in peaks:
            raise self.fail("bf16_tflops", "is missing: give the dense 16-bit peak (bf16_tflops and/or fp16_tflops)",
                            "缺失：请给出 16 位稠密峰值（bf16_tflops 和/或 fp16_tflops）")
        precisions = e.get("precisions")
        if precisions is None:
            e["precisions"] = precisions = [p for p in PRECISIONS if p in peaks]
        for p in precisions:
            if p not in PRECISIONS:
                raise self.fail("precisions", f"unknown precision {p!r} (one of {', '.join(PRECISIONS)})",
                                f"未知精度 {p!r}（可选：{', '.join(PRECISIONS)}）")
        for p in peaks:
            if p not in precisions:
                raise self.fail(PEAK_FIELDS[p], f"gives a {p} peak, but the entry's precisions ({', '.join(precisions)}) "
                                f"do not include {p}: a chip without {p} has no {p} peak (leave the field out)",
                                f"给了 {p} 峰值，但本项的 precisions（{', '.join(precisions)}）不含 {p}："
                                f"不支持 {p} 的芯片没有 {p} 峰值（请删去该字段）")
        for p in ("fp16", "bf16", "fp8", "fp4"):
            if p in precisions and p not in peaks:
                raise self.fail(PEAK_FIELDS[p], f"is missing: precisions lists {p}, so give its dense peak",
                                f"缺失：precisions 含 {p}，请给出它的稠密峰值")
        if "int8_tops" in e and "int8" not in precisions:
            raise self.fail("int8_tops", f"gives an int8 peak, but the entry's precisions ({', '.join(precisions)}) do not "
                            "include int8", f"给了 int8 峰值，但本项的 precisions（{', '.join(precisions)}）不含 int8")
        _check_dense(self, e, peaks)
        if "scale_up_bandwidth_gbs" in e and "scale_up_bidirectional" not in e:
            raise self.fail("scale_up_bidirectional", "is missing: say whether scale_up_bandwidth_gbs counts both "
                            "directions (NVLink's 900 GB/s does: true)",
                            "缺失：请说明 scale_up_bandwidth_gbs 是否为双向合计（NVLink 的 900 GB/s 是：true）")
        for key in ("scale_up_bidirectional", "scale_up_domain", "scale_up_link"):
            if key in e and "scale_up_bandwidth_gbs" not in e:
                raise self.fail("scale_up_bandwidth_gbs", f"is missing: {key} is given, so give the scale-up bandwidth",
                                f"缺失：给了 {key}，请同时给出 scale-up 带宽")
        self._check_nic(e)
        self._check_system(e)

    def _check_nic(self, e: dict) -> None:
        """The scale-out NIC per GPU is a port speed Ethernet and InfiniBand define, in Gb/s (bits), and a built-in
        entry names the system that ships it: the network templates draw their NIC from this field."""
        nic = e.get("scale_out_nic_gbps")
        if nic is None:
            return
        if nic not in NIC_LINE_RATES:
            rates = ", ".join(f"{r:g}" for r in NIC_LINE_RATES)
            raise self.fail("scale_out_nic_gbps", f"{nic:g} Gb/s is not a NIC port speed ({rates} Gb/s); give it in "
                            "Gb/s, as the vendor quotes it (400, not 50 GB/s)",
                            f"{nic:g} Gb/s 不是网卡端口速率（{rates} Gb/s）；请按厂商的写法以 Gb/s 给出（400，而不是 50 GB/s）")
        if not self.user and "scale_out_nic_gbps" not in e.get("sources", {}):
            raise self.fail("sources", "gives no source for scale_out_nic_gbps: name the system (DGX / HGX / NVL72 "
                            "reference design) that ships that NIC per GPU",
                            "没有给出 scale_out_nic_gbps 的出处：请写明每卡配这块网卡的系统（DGX / HGX / NVL72 参考设计）")

    def _check_system(self, e: dict) -> None:
        """A node's power is shared by its GPUs, so both come together, and one GPU's share is at least its own
        TDP (a share below it is a figure in W written as kW, or a per-GPU figure); a built-in figure names its
        source, as the templates show it."""
        for key, other in (("node_power_kw", "gpus_per_node"), ("gpus_per_node", "node_power_kw")):
            if key in e and other not in e:
                raise self.fail(other, f"is missing: {key} is given, and a node's power is shared by its GPUs",
                                f"缺失：给了 {key}，节点功率要由它的 GPU 分摊")
        tdp = e.get("tdp_w")
        if "node_power_kw" in e and tdp and e["node_power_kw"] * 1000 / e["gpus_per_node"] < tdp:
            share = e["node_power_kw"] * 1000 / e["gpus_per_node"]
            raise self.fail("node_power_kw", f"{share:g} W per GPU is below the GPU's own {tdp:g} W TDP: give the "
                            "whole system's maximum, in kW", f"每卡 {share:g} W，低于 GPU 自身 {tdp:g} W 的 TDP："
                            "请给出整机的最大功率，单位 kW")
        for key in SOURCED:
            if key in e and not self.user and key not in e.get("sources", {}):
                raise self.fail("sources", f"gives no source for {key}: name the datasheet, whitepaper or reference "
                                "design it comes from", f"没有给出 {key} 的出处：请写明它来自哪份规格书、白皮书或参考设计")

    # -- models -------------------------------------------------------------- #

    def _rules_models(self, e: dict) -> None:
        for key in ("params_total", "params_active"):
            if key in e and e[key] < 1e6:
                raise self.fail(key, f"{e[key]:g} is not a plain count: write 7e10 for a 70B model, not 70",
                                f"{e[key]:g} 不是参数个数：70B 的模型写 7e10，而不是 70")
        h, kv = e["n_heads"], e["n_kv_heads"]
        if kv > h or h % kv:
            raise self.fail("n_kv_heads", f"{kv} must divide the {h} query heads",
                            f"{kv} 必须整除 {h} 个查询头")
        kind = e["attention"]
        mla = "kv_lora_rank" in e
        expected = "mla" if mla else "mha" if kv == h else "mqa" if kv == 1 else "gqa"
        if kind != expected and not (kind == "mha" and kv == h == 1):
            raise self.fail("attention", f"says {kind}, but the head counts ({h} query, {kv} key/value heads"
                            f"{', kv_lora_rank given' if mla else ''}) make it {expected}",
                            f"写的是 {kind}，但头数（{h} 个查询头、{kv} 个 KV 头{'，给了 kv_lora_rank' if mla else ''}）"
                            f"表明是 {expected}")
        if mla and "rope_dim" not in e:
            raise self.fail("rope_dim", "is missing: an MLA model gives kv_lora_rank and rope_dim (qk_rope_head_dim)",
                            "缺失：MLA 模型要给出 kv_lora_rank 和 rope_dim（qk_rope_head_dim）")
        for key in ("rope_dim", "q_lora_rank", "qk_nope_head_dim", "v_head_dim"):
            if key in e and not mla:
                raise self.fail(key, "is for MLA models (with kv_lora_rank)", "只用于 MLA 模型（与 kv_lora_rank 一起）")
        moe = "n_experts" in e
        if moe:
            if e["n_experts"] < 2:
                raise self.fail("n_experts", "a mixture of experts has 2 or more experts (leave it out for a dense model)",
                                "混合专家至少有 2 个专家（稠密模型请删去该字段）")
            for key in ("ffn_expert", "top_k", "params_active"):
                if key not in e:
                    raise self.fail(key, "is missing: a mixture-of-experts model (n_experts given) needs it",
                                    "缺失：混合专家模型（给了 n_experts）需要它")
            if e["top_k"] > e["n_experts"]:
                raise self.fail("top_k", f"{e['top_k']} is more than the {e['n_experts']} experts",
                                f"{e['top_k']} 大于专家数 {e['n_experts']}")
            if e["params_active"] >= e["params_total"]:
                raise self.fail("params_active", "must be less than params_total: a token uses top_k of the experts",
                                "必须小于 params_total：每个 token 只用 top_k 个专家")
        else:
            for key in ("ffn_expert", "top_k", "n_shared_experts", "first_dense_layers", "moe_layer_step"):
                if key in e:
                    raise self.fail(key, "is for mixture-of-experts models: give n_experts too, or leave it out",
                                    "只用于混合专家模型：请同时给出 n_experts，或删去该字段")
            if "params_active" in e and e["params_active"] != e["params_total"]:
                raise self.fail("params_active", "differs from params_total in a dense model (leave it out)",
                                "稠密模型的 params_active 与 params_total 不同（请删去该字段）")
        if (not moe or e.get("first_dense_layers") or e.get("moe_layer_step", 1) > 1) and "ffn" not in e:
            raise self.fail("ffn", "is missing: give the dense MLP's intermediate size", "缺失：请给出稠密 MLP 的中间维度")
        if e.get("first_dense_layers", 0) >= e["layers"]:
            raise self.fail("first_dense_layers", f"must be fewer than the {e['layers']} layers",
                            f"必须少于 {e['layers']} 层")
        if ("sliding_window_layers" in e or "sliding_window_pattern" in e) and "sliding_window" not in e:
            raise self.fail("sliding_window", "is missing: sliding_window_layers is given",
                            "缺失：给了 sliding_window_layers")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _known_dense(builtin: list[dict]) -> dict[str, dict[str, float]]:
    """Built-in accelerators' dense peaks by id and by lowercased name (rule 3 of the dense check)."""
    out: dict[str, dict[str, float]] = {}
    for e in builtin:
        peaks = {p: e[f] for p, f in PEAK_FIELDS.items() if f in e}
        out[e["id"]] = out[e["name"].lower()] = peaks
    return out


def _check_dense(entry: _Entry, e: dict, peaks: dict[str, float]) -> None:
    tdp = e.get("tdp_w")
    if tdp:
        for p, value in peaks.items():
            if value / tdp > MAX_TFLOPS_PER_W[p]:
                raise entry.fail(PEAK_FIELDS[p], f"{value:g} TFLOPS at {tdp:g} W is {value / tdp:.2f} TFLOPS per watt, "
                                 f"above the {MAX_TFLOPS_PER_W[p]:g} any part reaches dense at {p}: is it the "
                                 "datasheet's 2:4-sparse figure? Give the dense one (half of it)",
                                 f"{value:g} TFLOPS、{tdp:g} W 即每瓦 {value / tdp:.2f} TFLOPS，高于任何芯片在 {p} "
                                 f"下的稠密上限 {MAX_TFLOPS_PER_W[p]:g}：这是数据手册里 2:4 稀疏的数字吗？"
                                 "请给稠密峰值（它的一半）")
    order = [p for p in ("fp32", "fp16", "fp8", "fp4") if p in peaks or (p == "fp16" and "bf16" in peaks)]
    for lower, higher in zip(order, order[1:]):
        a = peaks[lower] if lower != "fp16" else min(v for k, v in peaks.items() if k in ("fp16", "bf16"))
        b = peaks[higher] if higher != "fp16" else max(v for k, v in peaks.items() if k in ("fp16", "bf16"))
        if a > b:
            field = PEAK_FIELDS[higher if higher != "fp16" else ("bf16" if "bf16" in peaks else "fp16")]
            raise entry.fail(field, f"a {lower} peak of {a:g} TFLOPS above the {higher} one ({b:g}): a lower precision "
                             "is never slower; is one of them a 2:4-sparse figure?",
                             f"{lower} 峰值 {a:g} TFLOPS 高于 {higher} 峰值（{b:g}）：低精度不会更慢；"
                             "其中是否有 2:4 稀疏的数字？")
    if entry.known:
        known = _known_dense(entry.known)
        ref = known.get(e["id"]) or known.get(e["name"].lower())
        for p, value in peaks.items():
            dense = (ref or {}).get(p)
            if dense and p != "fp32" and math.isclose(value, 2 * dense, rel_tol=0.015):
                raise entry.fail(PEAK_FIELDS[p], f"{value:g} TFLOPS is {e['name']}'s 2:4-sparse {p} figure; the dense "
                                 f"one is {dense:g}", f"{value:g} TFLOPS 是 {e['name']} 的 2:4 稀疏 {p} 数字；"
                                 f"稠密峰值是 {dense:g}")


# --------------------------------------------------------------------------- #
# Reading files


def parse_toml(path: Path | str, *, text: str | None = None) -> dict:
    """The TOML document at ``path`` (or ``text``), refused as one CatalogueError when it is not readable TOML."""
    import tomllib

    try:
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except UnicodeDecodeError:
        raise CatalogueError(path, "is not UTF-8 text", "不是 UTF-8 文本") from None
    except tomllib.TOMLDecodeError as e:
        raise CatalogueError(path, f"is not valid TOML: {e}", f"不是合法的 TOML：{e}") from None
    except RecursionError:
        raise CatalogueError(path, "is nested too deeply to read", "嵌套太深，无法读取") from None
    except OSError as e:
        raise CatalogueError(path, f"cannot be read ({e.strerror or e})", f"无法读取（{e.strerror or e}）") from None


def validate(doc: Any, path: Path | str, *, user: bool = False, sections: Iterable[str] | None = None,
             known: Sequence[dict] = ()) -> dict[str, list]:
    """The validated entries of a parsed document, section by section (raises the first CatalogueError).

    ``user``: a user's file (``<saves>/catalogue/``: accelerators and models only, at most MAX_USER_ENTRIES,
    no ``pools``); ``known``: the built-in accelerators entries, against which rule 3 of the dense check
    compares an entry naming one of them."""
    allowed = tuple(sections or (USER_SECTIONS if user else SCHEMA))
    if not isinstance(doc, dict):
        raise CatalogueError(path, "must be a table of [[accelerators]] / [[models]]",
                             "必须由 [[accelerators]] / [[models]] 组成")
    for key in doc:
        if key not in allowed:
            raise CatalogueError(path, f"has a section {str(key)[:40]!r}: only {', '.join(allowed)} are read "
                                 f"(as [[{allowed[0]}]] tables)",
                                 f"含有段 {str(key)[:40]!r}：只读取 {', '.join(allowed)}（写作 [[{allowed[0]}]] 表）")
    total = sum(len(v) if isinstance(v, list) else 1 for v in doc.values())
    if user and total > MAX_USER_ENTRIES:
        raise CatalogueError(path, f"has {total} entries; a file holds at most {MAX_USER_ENTRIES}",
                             f"有 {total} 项；一个文件最多 {MAX_USER_ENTRIES} 项")
    out: dict[str, list] = {}
    for section in allowed:
        items = doc.get(section, [])
        if not isinstance(items, list):
            raise CatalogueError(path, f"{section} must be an array of tables ([[{section}]])",
                                 f"{section} 必须是表数组（[[{section}]]）", section=section)
        entries = [_Entry(str(path), section, i, raw, user, list(known)).check() for i, raw in enumerate(items)]
        seen: set[str] = set()
        for i, e in enumerate(entries):
            if e["id"] in seen:
                raise CatalogueError(path, "the id is used twice in this file", "该 id 在本文件中出现了两次",
                                     section=section, index=i, entry_id=e["id"], field="id")
            seen.add(e["id"])
        out[section] = entries
    return out


def _check_links(accelerators: list[dict], links: list[dict], path: str) -> None:
    by_id = {link["id"]: link for link in links}
    for i, a in enumerate(accelerators):
        link_id = a.get("scale_up_link")
        if link_id is None:
            continue
        link = by_id.get(link_id)
        fail = lambda en, zh, f="scale_up_link", i=i, a=a: CatalogueError(  # noqa: E731
            path, en, zh, section="accelerators", index=i, entry_id=a["id"], field=f)
        if link is None:
            raise fail(f"names {link_id!r}, which is not a link of the catalogue ({', '.join(by_id)})",
                       f"指向 {link_id!r}，它不是目录中的互连（{', '.join(by_id)}）")
        want = link["one_way_gbs"] * (2 if a["scale_up_bidirectional"] else 1)
        if not math.isclose(a["scale_up_bandwidth_gbs"], want, rel_tol=1e-9):
            raise fail(f"{a['scale_up_bandwidth_gbs']:g} GB/s disagrees with {link['name']} ({want:g} GB/s "
                       f"{'both directions' if a['scale_up_bidirectional'] else 'one way'})",
                       f"{a['scale_up_bandwidth_gbs']:g} GB/s 与 {link['name']}（{want:g} GB/s）不符",
                       "scale_up_bandwidth_gbs")


def read_builtin(group: str) -> dict[str, list]:
    """The built-in entries of ``group`` (its sections' TOML files), read and validated, ``sources`` and all."""
    entries: dict[str, list] = {}
    for section in GROUPS[group]:
        path = BUILTIN_FILES[section]
        entries |= validate(parse_toml(path), _rel(path), sections=(section,))
    if group == "hardware":
        _check_links(entries["accelerators"], entries["links"], _rel(BUILTIN_FILES["accelerators"]))
    return entries


def _rel(path: Path) -> str:
    return f"question_bank/data/{path.name}"


def full_entries() -> dict[str, list]:
    """Every built-in entry with its ``sources`` (read from the TOML files: for commands, not start-up)."""
    return read_builtin("hardware") | read_builtin("models")
