"""Units and kinds of quantity.

Every value in the engine is a float in *base units* of one *kind*:

=============  ===========  ==========================================
kind           base unit    examples of accepted units
=============  ===========  ==========================================
``bytes``      B            B, kB, GB, TB, GiB, TiB, b, Gb, Gbit
``bandwidth``  B/s          GB/s, TB/s, GiB/s, Gb/s, Gbps
``flop``       FLOP         FLOP, FLOPs, GFLOP, TFLOPs, PFLOP
``flop_rate``  FLOP/s       FLOPS, TFLOPS, TFLOP/s, PFLOPS
``intensity``  FLOP/B       FLOP/B, FLOPs/Byte
``time``       s            ns, us, µs, ms, s, min, h, day
``tok_rate``   tok/s        tok/s, tokens/s, tps
``ratio``      (none)       %, or a bare fraction such as 0.45
``count``      (none)       GPUs, cards, tokens, params, sequences, blocks
``bits``       bit          bit, bits, bpw (bits per weight)
``dollars``    $            $, USD, dollars, 美元
``usd_per_gpu_hour``  $/GPU-h  $/GPU-h, USD/GPU-h, $/GPUh
``usd_per_mtok``  $/Mtok    $/Mtok, USD/Mtok
``gpu_hours``  GPU-h        GPU-h, GPU-hours, GPUh, 卡时
``req_rate``   req/s        req/s, requests/s, rps, QPS
``step_rate``  step/s       step/s, steps/s
``power``      W            W, kW, MW, GW, watts, 瓦
``energy_per_token``  J/token  J/token, J/tok, mJ/token, kJ/token
``mwh``        MWh          MWh, kWh, GWh, Wh, J, kJ, MJ, GJ
``nats``       nat          nat, nats
=============  ===========  ==========================================

The economic, energy and serving-capacity kinds (from ``dollars`` on) were added for the 2026
interview formulas (cost, capacity, energy, the Chinchilla loss).  In expressions they have
dimensions of their own: the base dimensions are FLOP, B, s, $ and J, so a watt is J/s, a MWh is
3.6 × 10⁹ J, a price per GPU-hour is $/s (a GPU is a count), $/Mtok is $ (per 10⁶ tokens, a count),
a request or a decode step per second is 1/s like a token rate, and a nat is a plain number.
``GPU-h`` is a GPU busy for an hour: a time in an expression (``1024 GPUs × 720 h`` is GPU-hours,
``7e6 GPU-h × 700 W`` is energy), but its own unit when typed alone (3600 s is not an answer to
"how many GPU-hours": a single unit of another kind is refused, as everywhere).

Conventions (``shared/spec/formulas.md``): GB = 1e9 B, GiB = 2^30 B, TFLOPS =
1e12 FLOP/s, bandwidth is decimal bytes per second. A lower-case ``b`` is a bit,
an upper-case ``B`` a byte.

Why our own table, not a unit library (measured with Pint 0.25.3 and sympy
1.14): Pint makes the byte dimensionless (``GB/s`` has the dimension of
``1/s``), reads ``Gb/s`` as gilbert per second and ``kb`` as kilobarn, and
knows no FLOP, TFLOPS or tok; ``sympy.physics.units`` has no GB or FLOP and
takes 0.6-1 s to import.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from engine.records import NamedTuple

from .count_nouns import CLASSIFIERS, SPELLINGS

_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

KINDS: dict[str, str] = {
    "bytes": "B",
    "bandwidth": "B/s",
    "flop": "FLOP",
    "flop_rate": "FLOP/s",
    "intensity": "FLOP/B",
    "time": "s",
    "tok_rate": "tok/s",
    "ratio": "ratio",
    "count": "count",
    "bits": "bit",
    "dollars": "$",
    "usd_per_gpu_hour": "$/GPU-h",
    "usd_per_mtok": "$/Mtok",
    "gpu_hours": "GPU-h",
    "req_rate": "req/s",
    "step_rate": "step/s",
    "power": "W",
    "energy_per_token": "J/token",
    "mwh": "MWh",
    "nats": "nat",
}

KIND_NAMES: dict[str, str] = {
    "bytes": "a size in bytes",
    "bandwidth": "a bandwidth (bytes per second)",
    "flop": "a FLOP count",
    "flop_rate": "a compute rate (FLOP/s)",
    "intensity": "an arithmetic intensity (FLOP/B)",
    "time": "a time",
    "tok_rate": "a token rate (tok/s)",
    "ratio": "a ratio or percentage",
    "count": "a count",
    "bits": "a number of bits",
    "dollars": "an amount of money ($)",
    "usd_per_gpu_hour": "a price per GPU-hour ($/GPU-h)",
    "usd_per_mtok": "a price per million tokens ($/Mtok)",
    "gpu_hours": "a number of GPU-hours",
    "req_rate": "a request rate (req/s)",
    "step_rate": "a step rate (step/s)",
    "power": "a power (W)",
    "energy_per_token": "an energy per token (J/token)",
    "mwh": "an energy (MWh)",
    "nats": "a loss in nats",
}


class UnitKind(NamedTuple):
    """What one kind of quantity does differently from the others, as data.

    Parsing, grading and showing a quantity read these flags instead of testing
    the kind's name (``kind in ("count", "ratio")``), so a new kind is one row of
    :data:`UNIT_KINDS`.
    """

    name: str
    plain: bool = False  # a bare number is the answer (count, ratio): 70B is 70 billion, no unit to slip
    percent: bool = False  # 45 and 0.45 are one answer read two ways (ratio); shown as %
    byte_unit: str = ""  # the byte unit of a byte quantity (B, B/s): binary prefixes and the bits slips apply
    size: bool = False  # a size in bytes: the GB/GiB slip is named, and a size is shown in binary units too
    whole: bool = False  # shown as a whole number when it has more than 4 digits (bytes, counts, FLOP)
    clock: bool = False  # a time: min, h and day are not powers of 1000 (not unit slips, shown from two on)
    # a data type's name (fp16) reads as its element size in this kind: 1 per byte (bytes), 8 (bits); 0: not read.
    # The note that says so is the message note.dtype_<name>.
    per_dtype: float = 0.0

    @property
    def counted(self) -> bool:
        """A count of things (GPUs, tokens): a whole number with no unit, written ``1,024`` in a table."""
        return self.plain and not self.percent

    @property
    def written(self) -> str:
        """The unit written after a plain number of this kind (none for a count)."""
        return "" if self.counted else KINDS[self.name]


UNIT_KINDS: dict[str, UnitKind] = {k.name: k for k in (
    UnitKind("bytes", byte_unit="B", size=True, whole=True, per_dtype=1.0),
    UnitKind("bandwidth", byte_unit="B/s"),
    UnitKind("flop", whole=True),
    UnitKind("flop_rate"),
    UnitKind("intensity"),
    UnitKind("time", clock=True),
    UnitKind("tok_rate"),
    UnitKind("ratio", plain=True, percent=True),
    UnitKind("count", plain=True, whole=True),
    UnitKind("bits", per_dtype=8.0),
    # cost, capacity, energy and loss (the 2026 interview formulas): a unit of their own, no prefixes to slip
    *(UnitKind(k) for k in ("dollars", "usd_per_gpu_hour", "usd_per_mtok", "gpu_hours", "req_rate", "step_rate",
                            "power", "energy_per_token", "mwh", "nats")),
)}


class Unit(NamedTuple):
    """A unit a person may type: its kind, its factor to base units and a note.

    (A NamedTuple: immutable, compared by value, and cheap to define at import, which the app's first
    problem waits for.)"""

    symbol: str
    kind: str
    factor: float
    note: str = ""  # e.g. "bits" when a lower-case b was read as bits

    @property
    def _divisor(self) -> float:
        """1e6 for µs: dividing by it is exact where multiplying by 1e-6 is not (5 µs = 5e-6 s)."""
        if self.factor < 1:
            d = float(round(1 / self.factor))
            if abs(d * self.factor - 1) < 1e-12:
                return d
        return 0.0

    def to_base(self, x: float) -> float:
        d = self._divisor
        return x / d if d else x * self.factor

    def from_base(self, x: float) -> float:
        d = self._divisor
        return x * d if d else x / self.factor


_DEC = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
BIN = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50}


# Things counted (both languages: engine.count_nouns, by what each counts), and the classifiers Chinese puts
# between a number and its noun: a count is a plain number, so each reads as one on a count question and cancels in an expression
# (16 B/param × 70e9 params is bytes).  engine.numerals reads a magnitude letter before one as a count
# multiplier (70B params is 7 × 10¹⁰).
COUNT_NOUNS: tuple[str, ...] = (*(s for spelled in SPELLINGS.values() for s in spelled), *CLASSIFIERS)


def _build_table() -> dict[str, tuple[Unit, ...]]:
    """Unit symbol -> candidate readings (the first is the default reading).

    A symbol has more than one reading when people use it for two things, e.g.
    ``TFLOPs`` is written both for a count and for a rate; the expected kind of
    the question chooses.
    """
    table: dict[str, list[Unit]] = {}

    def add(symbol: str, kind: str, factor: float, note: str = "") -> None:
        table.setdefault(symbol, [])
        if all(u.kind != kind for u in table[symbol]):
            table[symbol].append(Unit(symbol, kind, factor, note))

    for p, f in _DEC.items():
        if p != "K":
            add(f"{p}B", "bytes", f)
            add(f"{p}B/s", "bandwidth", f)
            add(f"{p}Bps", "bandwidth", f)
            add(f"{p}B/sec", "bandwidth", f)
            add(f"{p}Byte", "bytes", f)
            add(f"{p}Bytes", "bytes", f)
            if p:
                add(f"{p}bytes", "bytes", f)  # 1120 Gbytes
                add(f"{p}bytes/s", "bandwidth", f)
        if p:
            add(f"{p}b", "bytes", f / 8, "bits")
            add(f"{p}bit", "bytes", f / 8, "bits")
            add(f"{p}bits", "bytes", f / 8, "bits")
            add(f"{p}b/s", "bandwidth", f / 8, "bits")
            add(f"{p}bit/s", "bandwidth", f / 8, "bits")
            add(f"{p}bps", "bandwidth", f / 8, "bits")
        for flop in ("FLOP", "Flop", "flop"):
            add(f"{p}{flop}", "flop", f)
            add(f"{p}{flop}/s", "flop_rate", f)
            add(f"{p}{flop}s/s", "flop_rate", f)
        # "FLOPS" is a rate and "FLOPs" a count, but people write each for the
        # other ("312 TFLOPs"): a second reading, chosen by the question's kind.
        for flops in ("FLOPS", "Flops", "flops"):
            add(f"{p}{flops}", "flop_rate", f)
            add(f"{p}{flops}", "flop", f, f"read {flops} as a FLOP count")
        add(f"{p}FLOPs", "flop", f)
        add(f"{p}FLOPs", "flop_rate", f, "read FLOPs as FLOP/s")
    add("KB", "bytes", 1e3)
    add("KB/s", "bandwidth", 1e3)
    for p, f in BIN.items():
        add(f"{p}B", "bytes", f)
        add(f"{p}B/s", "bandwidth", f)
        add(f"{p}b", "bytes", f / 8, "bits")
        add(f"{p}bit", "bytes", f / 8, "bits")
    add("bit", "bytes", 1 / 8, "bits")
    add("bits", "bytes", 1 / 8, "bits")
    add("b", "bytes", 1 / 8, "bits")
    # bits as a quantity of their own: bits per weight of a quantised model (4.125 bit)
    for sym in ("bit", "bits", "b", "bpw", "比特", "位"):
        add(sym, "bits", 1.0)
    add("bytes", "bytes", 1.0)
    add("byte", "bytes", 1.0)
    add("Bytes", "bytes", 1.0)
    add("bytes/s", "bandwidth", 1.0)
    add("字节", "bytes", 1.0)
    # Chinese byte units: 千兆字节 (a "thousand mega") is the GB people say
    for sym, f in (("千字节", 1e3), ("兆字节", 1e6), ("吉字节", 1e9), ("千兆字节", 1e9), ("太字节", 1e12),
                   ("拍字节", 1e15)):
        add(sym, "bytes", f)
        add(f"{sym}/s", "bandwidth", f)
        add(f"{sym}/秒", "bandwidth", f)
    add("字节/s", "bandwidth", 1.0)
    add("字节/秒", "bandwidth", 1.0)

    for sym in ("FLOP/B", "FLOPs/B", "FLOPS/B", "FLOP/byte", "FLOPs/byte", "FLOP/Byte",
                "FLOPs/Byte", "FLOPS/Byte", "flop/B", "flops/B", "flop/byte", "flops/byte",
                "FLOP/Bytes", "FLOPs/Bytes", "Flop/B", "Flops/B", "Flops/Byte"):
        add(sym, "intensity", 1.0)

    for sym, f in (("ns", 1e-9), ("us", 1e-6), ("µs", 1e-6), ("μs", 1e-6), ("ms", 1e-3),
                   ("s", 1.0), ("sec", 1.0), ("secs", 1.0), ("second", 1.0), ("seconds", 1.0),
                   ("min", 60.0), ("mins", 60.0), ("minute", 60.0), ("minutes", 60.0),
                   ("h", 3600.0), ("hr", 3600.0), ("hrs", 3600.0), ("hour", 3600.0),
                   ("hours", 3600.0), ("d", 86400.0), ("day", 86400.0), ("days", 86400.0),
                   ("nsec", 1e-9), ("usec", 1e-6), ("msec", 1e-3),
                   ("纳秒", 1e-9), ("微秒", 1e-6), ("毫秒", 1e-3), ("秒", 1.0), ("分钟", 60.0),
                   ("小时", 3600.0), ("天", 86400.0)):
        add(sym, "time", f)

    for sym in ("tok/s", "tokens/s", "token/s", "tokens/sec", "tok/sec", "tps", "t/s", "Tokens/s",
                "Token/s", "Tokens/sec", "tokens/second", "TPS", "tok/秒", "token/秒"):
        add(sym, "tok_rate", 1.0)

    add("%", "ratio", 0.01)
    add("percent", "ratio", 0.01)
    add("pct", "ratio", 0.01)

    for sym in (*COUNT_NOUNS, "x", "×", "张卡", "块卡"):
        add(sym, "count", 1.0)
    # a count per count (8 GPUs/node × 512 nodes is GPUs): plain, like the nouns
    for top, per in (("GPU", "node"), ("GPUs", "node"), ("GPU", "server"), ("GPUs", "server"), ("卡", "节点"),
                     ("tokens", "request"), ("tokens", "req"), ("tok", "req"), ("tokens", "seq"),
                     ("tokens", "sequence"), ("experts", "token"), ("layers", "stage"), ("steps", "epoch"),
                     # the ratios the bank's count formulas multiply by (D = 20 tokens/param × Φ; paged KV; racks)
                     ("tokens", "param"), ("tokens", "parameter"), ("tok", "param"), ("GPUs", "rack"),
                     ("GPU", "rack"), ("nodes", "rack"), ("tokens", "block"), ("blocks", "seq"),
                     ("blocks", "sequence"), ("blocks", "request"), ("tokens", "step"), ("sequences", "step"),
                     ("seqs", "step"), ("GPUs", "replica"), ("GPUs", "instance"), ("requests", "replica"),
                     ("req", "replica"), ("tokens", "expert"), ("params", "expert"), ("params", "layer"),
                     ("micro-batches", "step"), ("microbatches", "step"), ("GPUs", "host"), ("卡", "机柜"),
                     # and the ratios their givens are written with (8 responses/prompt × 512 prompts)
                     ("responses", "prompt"), ("tokens", "response"), ("tokens", "prompt"), ("CTAs", "SM"),
                     ("experts", "GPU"), ("GPUs", "stage")):
        add(f"{top}/{per}", "count", 1.0)
    # bytes per parameter (or token): a count cancels, as on a whiteboard (16 B/param × 70e9 params is bytes)
    for per in ("param", "params", "parameter", "token", "tok", "参数", "个参数"):
        for sym in ("B", "bytes", "byte", "Bytes", "字节"):
            add(f"{sym}/{per}", "bytes", 1.0)
    for sym in ("x", "×", "times", "倍"):  # a speed-up "3.2x" is a ratio when the question asks for one
        add(sym, "ratio", 1.0)

    # cost, capacity and energy (the 2026 interview formulas)
    for sym in ("$", "USD", "dollars", "dollar", "美元"):
        add(sym, "dollars", 1.0)
    for sym in ("$/GPU-h", "USD/GPU-h", "$/GPUh", "USD/GPUh", "$/GPU-hour", "USD/GPU-hour"):
        add(sym, "usd_per_gpu_hour", 1.0)
    for sym in ("$/Mtok", "USD/Mtok", "$/Mtoken", "USD/Mtoken"):
        add(sym, "usd_per_mtok", 1.0)
    for sym in ("GPU-h", "GPU-hours", "GPU-hour", "GPUh", "卡时"):
        add(sym, "gpu_hours", 1.0)
    for sym in ("req/s", "requests/s", "request/s", "rps", "RPS", "QPS", "qps", "请求/s", "请求/秒"):
        add(sym, "req_rate", 1.0)
    for sym in ("step/s", "steps/s"):
        add(sym, "step_rate", 1.0)
    for sym in ("$/h", "USD/h", "$/hr", "$/hour"):  # a price per hour of one GPU (the GPU is a count)
        add(sym, "usd_per_gpu_hour", 1.0)
    for sym, f in (("W", 1.0), ("kW", 1e3), ("MW", 1e6), ("GW", 1e9), ("watt", 1.0), ("watts", 1.0), ("瓦", 1.0),
                   ("千瓦", 1e3), ("兆瓦", 1e6)):
        add(sym, "power", f)
    for sym, f in (("J/token", 1.0), ("J/tok", 1.0), ("mJ/token", 1e-3), ("mJ/tok", 1e-3), ("kJ/token", 1e3),
                   ("kJ/tok", 1e3), ("焦耳/token", 1.0)):
        add(sym, "energy_per_token", f)
    # energy: MWh is the kind's unit; joules are the same dimension (1 MWh = 3.6 × 10⁹ J)
    for sym, f in (("MWh", 1.0), ("kWh", 1e-3), ("GWh", 1e3), ("Wh", 1e-6), ("兆瓦时", 1.0), ("千瓦时", 1e-3),
                   ("J", 1 / 3.6e9), ("kJ", 1e3 / 3.6e9), ("MJ", 1e6 / 3.6e9), ("GJ", 1e9 / 3.6e9), ("TJ", 1e12 / 3.6e9),
                   ("焦耳", 1 / 3.6e9)):
        add(sym, "mwh", f)
    for sym in ("nat", "nats"):
        add(sym, "nats", 1.0)
    return {k: tuple(v) for k, v in table.items()}


UNITS: dict[str, tuple[Unit, ...]] = _build_table()
# Longest symbols first, so "GB/s" is tried before "B/s" and "s".
UNIT_SYMBOLS: tuple[str, ...] = tuple(sorted(UNITS, key=len, reverse=True))

# Bytes per element of the usual number formats (the spec's conventions).
DTYPE_BYTES: dict[str, float] = {"fp32": 4.0, "float32": 4.0, "tf32": 4.0, "fp16": 2.0, "float16": 2.0,
                                 "bf16": 2.0, "bfloat16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5,
                                 "fp4": 0.5}

# Bare-number multipliers a person writes: 1.5k, 70B (billion, for counts), 2M.
COUNT_SUFFIXES: dict[str, float] = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12, "P": 1e15}


# --------------------------------------------------------------------------- #
# Dimensions: what a product or quotient of quantities is (989 TFLOPS / 3.35 TB/s is FLOP/B).
#
# A dimension is the exponents of the five base units (FLOP, B, s, $, J).  Counts (tokens, parameters,
# GPUs, requests, steps) and ratios are plain numbers: a token rate is 1/s, so GB/s ÷ GB (one pass over
# the weights per token) answers a tok/s question.  Bits are bytes (b = B/8), so 400 Gb/s is a bandwidth;
# a watt is J/s, a GPU-hour 3600 s, a price per GPU-hour $/s and $/Mtok $ (per 10⁶ tokens).

Dim = tuple[int, ...]
PLAIN: Dim = (0, 0, 0, 0, 0)
KIND_DIMS: dict[str, Dim] = {
    "bytes": (0, 1, 0, 0, 0),
    "bandwidth": (0, 1, -1, 0, 0),
    "flop": (1, 0, 0, 0, 0),
    "flop_rate": (1, 0, -1, 0, 0),
    "intensity": (1, -1, 0, 0, 0),
    "time": (0, 0, 1, 0, 0),
    "tok_rate": (0, 0, -1, 0, 0),
    "ratio": PLAIN,
    "count": PLAIN,
    "bits": (0, 1, 0, 0, 0),  # a bit is B/8 (KIND_IN_DIMS)
    "dollars": (0, 0, 0, 1, 0),
    "usd_per_gpu_hour": (0, 0, -1, 1, 0),  # $ per GPU per hour: $/s
    "usd_per_mtok": (0, 0, 0, 1, 0),  # $ per 10⁶ tokens: $ (a token is a count)
    "gpu_hours": (0, 0, 1, 0, 0),  # a GPU (a count) for an hour
    "req_rate": (0, 0, -1, 0, 0),
    "step_rate": (0, 0, -1, 0, 0),
    "power": (0, 0, -1, 0, 1),  # W = J/s
    "energy_per_token": (0, 0, 0, 0, 1),
    "mwh": (0, 0, 0, 0, 1),
    "nats": PLAIN,
}
# One base unit of a kind in the base units of its dimension: 1 bit = 1/8 B, 1 GPU-h = 3600 s, 1 MWh = 3.6e9 J.
KIND_IN_DIMS: dict[str, float] = {"bits": 1 / 8, "gpu_hours": 3600.0, "usd_per_gpu_hour": 1 / 3600,
                                  "usd_per_mtok": 1e-6, "mwh": 3.6e9}
_DIM_NAMES = ("FLOP", "B", "s", "$", "J")


def dim_text(d: Dim) -> str:
    """``FLOP·B/s²``, ``FLOP/B``, ``1/s``; ``""`` for a plain number."""
    def part(names: list[tuple[str, int]]) -> str:
        return "·".join(n + (str(e).translate(_SUP) if e != 1 else "") for n, e in names)

    num = [(n, e) for n, e in zip(_DIM_NAMES, d) if e > 0]
    den = [(n, -e) for n, e in zip(_DIM_NAMES, d) if e < 0]
    if not num and not den:
        return ""
    top = part(num) or "1"
    if not den:
        return top
    bottom = part(den)
    return f"{top}/({bottom})" if len(den) > 1 else f"{top}/{bottom}"


def lookup(symbol: str, kind: str | None = None) -> Unit | None:
    """The reading of ``symbol``; prefers one of ``kind`` when given."""
    cands = UNITS.get(symbol)
    if not cands:
        return None
    if kind is not None:
        for u in cands:
            if u.kind == kind:
                return u
    return cands[0]


# --------------------------------------------------------------------------- #
# Formatting numbers and quantities as a person writes them.


@lru_cache(maxsize=1 << 16)  # pure, and a problem's figures recur (both languages, every worked line)
def _round_sig(x: float, sig: int) -> tuple[str, int]:
    """Digits and exponent of ``x`` rounded half-up to ``sig`` significant figures.

    Half-up, as people round on paper: 281.25 -> 281.3 (Python's float
    formatting would give 281.2).
    """
    d = Decimal(repr(abs(x)))
    exp = d.adjusted()
    q = d.scaleb(-exp).quantize(Decimal(1).scaleb(1 - sig), rounding=ROUND_HALF_UP)
    if q >= 10:
        q, exp = (q / 10).quantize(Decimal(1).scaleb(1 - sig), rounding=ROUND_HALF_UP), exp + 1
    digits = format(q, "f").rstrip("0").rstrip(".")
    return digits, exp


@lru_cache(maxsize=1 << 16)  # pure; a figure is written again in every line, language and check that shows it
def fmt_number(x: float, sig: int = 4) -> str:
    """A number as a person writes it: ``1120``, ``0.4667``, ``7 × 10¹⁰``."""
    if x != x:
        return "nan"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    mant, e = _round_sig(x, sig)
    if -3 <= e < 6:
        s = format(Decimal(mant).scaleb(e), "f")
        if "." in s:
            s = s.rstrip("0").rstrip(".")
        return sign + s
    if mant == "1":
        return f"{sign}10{str(e).translate(_SUP)}"
    return f"{sign}{mant} × 10{str(e).translate(_SUP)}"


def whole_digits(x: float) -> int:
    """Significant digits of a whole number held exactly (131072 -> 6, 1.4e11 -> 2); 0 if ``x`` is not one.

    Whole numbers (bytes, counts, FLOPs of whole inputs) are shown exactly: rounding to significant
    figures is for values that are not whole.  Exact means below 2^53.
    """
    x = float(x)
    if not math.isfinite(x) or not x or not x.is_integer() or abs(x) >= 2.0**53:
        return 0
    return len(str(int(abs(x))).rstrip("0"))


def fmt_whole(x: float, sig: int = 4, grouped: bool = True) -> str:
    """A whole number with every digit when rounding would lose one (``131,072``), else as :func:`fmt_number`.

    ``grouped=False`` writes it for the parser (``131072``); numbers of 10¹⁵ and more keep the
    ``× 10ⁿ`` form with all their digits.
    """
    n = whole_digits(x)
    if n <= sig:
        return fmt_number(x, sig) if grouped else fmt_plain(x, sig)
    if abs(x) < 1e15:
        return f"{int(x):,}" if grouped else str(int(x))
    return fmt_number(x, n) if grouped else fmt_plain(x, n)


def binary_size(value: float) -> str:
    """``128 KiB``, ``1.25 GiB``: a byte count as a round binary size (at most two decimals), else ``""``."""
    if whole_digits(value) == 0 or value < 1024:
        return ""
    for sym in ("PiB", "TiB", "GiB", "MiB", "KiB"):
        f = BIN[sym[:2]]
        if value >= f:
            q = value / f
            if abs(q * 100 - round(q * 100)) < 1e-9:
                return f"{fmt_number(q, 6)} {sym}"
            return ""
    return ""


def fmt_plain(x: float, sig: int = 4) -> str:
    """A number a parser can read back: ``1120``, ``0.4667``, ``7e10``."""
    if x == 0 or not math.isfinite(x):
        return fmt_number(x, sig)
    sign = "-" if x < 0 else ""
    mant, e = _round_sig(x, sig)
    if -3 <= e < 6:
        return fmt_number(x, sig)
    return f"{sign}{mant}e{e}"


PREFIXED = {
    "bytes": ("B", [("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3), ("B", 1.0)]),
    "bandwidth": ("B/s", [("PB/s", 1e15), ("TB/s", 1e12), ("GB/s", 1e9), ("MB/s", 1e6),
                          ("kB/s", 1e3), ("B/s", 1.0)]),
    "flop": ("FLOP", [("EFLOP", 1e18), ("PFLOP", 1e15), ("TFLOP", 1e12), ("GFLOP", 1e9),
                      ("MFLOP", 1e6), ("kFLOP", 1e3), ("FLOP", 1.0)]),
    "flop_rate": ("FLOP/s", [("EFLOP/s", 1e18), ("PFLOP/s", 1e15), ("TFLOP/s", 1e12),
                             ("GFLOP/s", 1e9), ("MFLOP/s", 1e6), ("FLOP/s", 1.0)]),
    "time": ("s", [("day", 86400.0), ("h", 3600.0), ("min", 60.0), ("s", 1.0), ("ms", 1e-3),
                   ("µs", 1e-6), ("ns", 1e-9)]),
}


def best_unit(value: float, kind: str) -> tuple[str, float]:
    """The unit a person would pick for ``value`` of ``kind``: (symbol, factor)."""
    if kind in PREFIXED:
        _, steps = PREFIXED[kind]
        av = abs(value)
        clock = UNIT_KINDS[kind].clock
        for sym, f in steps:
            # minutes, hours and days only from two of them on ("90 s", not "1.5 min")
            if av >= (2 * f if clock and f > 1 else f):
                return sym, f
        return steps[-1]
    if UNIT_KINDS[kind].percent:
        return "%", 0.01
    return UNIT_KINDS[kind].written, 1.0


def round_sig(x: float, sig: int) -> float:
    """``x`` rounded half-up to ``sig`` significant figures, as it is written (``1.38e11`` for 137953296384)."""
    if x == 0 or not math.isfinite(x):
        return x
    mant, e = _round_sig(x, sig)
    return math.copysign(float(Decimal(mant).scaleb(e)), x)


def fmt_quantity(value: float, kind: str, sig: int = 4, unit: str | None = None) -> str:
    """A quantity for people: ``1.12 TB``, ``14.56 tok/s``, ``46.7 %``, ``14 GPUs``."""
    if unit is not None:
        u = lookup(unit, kind)
        if u is None:
            raise ValueError(f"unknown unit {unit!r}")
        sym, num = unit, fmt_number(u.from_base(value), sig)
    else:
        sym, f = best_unit(round_sig(value, sig), kind)
        num = fmt_number(value / f, sig)
    return f"{num} {sym}".rstrip() if sym else num


def fmt_parseable(value: float, kind: str, sig: int = 4) -> str:
    """Like :func:`fmt_quantity` but in plain ASCII the answer parser reads back."""
    sym, f = best_unit(round_sig(value, sig), kind)
    num = fmt_plain(value / f, sig)
    return f"{num} {sym}".rstrip() if sym else num
