"""Accelerator catalogue: datasheet figures, dense (no 2:4 sparsity), each with its source.

The figures are data: ``question_bank/data/accelerators.toml`` and ``interconnects.toml``,
validated by :mod:`question_bank.catalogue` and read when a record is first needed (``GPUS``,
``BY_KEY``, ``LINKS``, ``IB_NDR`` ... are loaded on first access).  This module defines the records
and what is computed from them.

Units are base units: bytes, bytes per second, FLOP/s.  Conventions as in
``shared/spec/formulas.md``: GB = 1e9 B, TB/s = 1e12 B/s, TFLOPS = 1e12 FLOP/s.
Datasheets quote tensor-core figures "with sparsity" next to the dense ones;
every figure here is the dense one (half the sparse figure).

The seed cheat-sheet's own ridge table (C§5.2) quotes its figures as "BF16 Tensor
Core" peaks, which is wrong for the V100 (125 TFLOPS is fp16: Volta has no bf16), and
calls the V100 "SXM3"; the numbers themselves (125, 312, 989, 2250 TFLOPS; 900, 2039,
3350, 8000 GB/s) agree with the catalogue below.  It is kept as :data:`SEED_TABLE` so a
problem that quotes the seed reproduces its 138.9 / 153.0 / 295.2 / 281.3 FLOP/B; each row
carries the precision its figure really is (fp16 for the V100), and problems say so.
"""

from __future__ import annotations

from engine.records import NamedTuple

GB = 1e9
TB = 1e12
TFLOPS = 1e12

# Bytes per element of each precision (formulas.md conventions).
DTYPE_BYTES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5, "fp4": 0.5}
# Precisions a GPU's peak can be asked at, in the order they are usually quoted.
PEAK_DTYPES: tuple[str, ...] = ("bf16", "fp16", "fp8", "fp32")
# Every precision a GPU record may list in ``precisions`` (the formats its math runs in: fp32 on the
# CUDA / vector cores, the rest as tensor-core / matrix-core formats).
PRECISIONS: tuple[str, ...] = ("fp32", "tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8", "int4")
# Weight-only quantised storage: int8 / int4 weights are dequantised to 16-bit on the fly by the GEMM
# kernel (GPTQ / AWQ / bitsandbytes style), so any GPU with fp16 math can serve them; the math runs in 16-bit.
WEIGHT_ONLY: tuple[str, ...] = ("int8", "int4")


# The catalogue's records are named tuples (engine.records.named): immutable and compared by value like
# frozen dataclasses, and several times cheaper to define at import, which the app's first problem waits for.
class GPU(NamedTuple):
    """One accelerator: memory, memory bandwidth and dense peak compute per precision."""

    key: str  # short identifier: "h100_sxm"
    name: str  # as people say it: "H100 SXM"
    memory: float  # bytes (GB = 1e9 B)
    bandwidth: float  # memory bandwidth, B/s
    fp16: float | None  # dense fp16 tensor-core FLOP/s (None: not supported, e.g. TPUs)
    bf16: float | None  # dense bf16 tensor-core FLOP/s (None: not supported)
    fp8: float | None  # dense fp8 tensor-core FLOP/s (None: not supported)
    fp32: float | None  # fp32 FLOP/s (non-tensor unless noted; None: not published)
    source: str  # datasheet name + URL
    memory_type: str = "HBM"
    notes: str = ""
    # Formats the chip computes in, from its datasheet (see PRECISIONS): fp32 plus its tensor-core formats.
    precisions: tuple[str, ...] = ()
    fp4: float | None = None  # dense fp4 tensor-core FLOP/s (Blackwell on; None: not supported)
    vendor: str = ""
    tdp: float | None = None  # W
    scale_up: float | None = None  # scale-up bandwidth per chip as the vendor quotes it, B/s
    scale_up_bidirectional: bool = False  # ``scale_up`` counts both directions (NVLink's 900 GB/s)
    scale_up_domain: int | None = None  # chips per NVLink / xGMI domain, or per ICI pod
    scale_up_link: str = ""  # key of its Link in LINKS ("nvlink4"), if the catalogue has one
    scale_out_nic: float | None = None  # one GPU's scale-out NIC, one way, B/s (400 Gb/s = 50 GB/s), if known
    node_power: float | None = None  # maximum power of the system it ships in (DGX / NVL72 rack), W
    gpus_per_node: int | None = None  # GPUs sharing that node_power
    sms: int | None = None  # streaming multiprocessors
    smem_per_sm: float | None = None  # combined L1 / shared memory per SM, bytes (256 KiB = 262,144 B)
    host_link: float | None = None  # link to the host CPU, one way, B/s (PCIe Gen5 x16 64 GB/s, NVLink-C2C 450 GB/s)
    pools: tuple[str, ...] = ()  # the template pools it joins ("general": every template that draws a GPU)
    origin: str = ""  # "" for a built-in entry, else the user file it came from

    def supports(self, dtype: str) -> bool:
        """The chip computes in ``dtype`` (its datasheet lists it: ``precisions``)."""
        return dtype in self.precisions

    def stores(self, dtype: str) -> bool:
        """Weights or a KV cache can be kept in ``dtype`` on this chip: a format it computes in, or int8 / int4
        weight-only quantisation (dequantised to fp16 by the kernel)."""
        return self.supports(dtype) or (dtype in WEIGHT_ONLY and self.supports("fp16"))

    def peak(self, dtype: str) -> float:
        """Dense peak FLOP/s at ``dtype`` (bf16, fp16, fp8, fp32)."""
        if dtype not in PEAK_DTYPES:
            raise ValueError(f"unknown precision {dtype!r} (one of {', '.join(PEAK_DTYPES)})")
        value = getattr(self, dtype)
        if value is None:
            raise ValueError(f"{self.name} has no {dtype} tensor cores")
        return value

    @property
    def dtypes(self) -> tuple[str, ...]:
        """The precisions this GPU has a peak figure for (in PEAK_DTYPES order)."""
        return tuple(d for d in PEAK_DTYPES if d in self.precisions and getattr(self, d) is not None)

    @property
    def sixteen(self) -> str:
        """The 16-bit format training and serving use on this chip: bf16, or fp16 where there is no bf16 (V100)."""
        return "bf16" if self.supports("bf16") else "fp16"

    def ridge(self, dtype: str) -> float:
        """Ridge point (FLOP/B) at ``dtype``: peak / bandwidth."""
        return self.peak(dtype) / self.bandwidth


# The records themselves are data: question_bank/data/accelerators.toml (each figure with the datasheet row it
# was checked against), read and validated by question_bank.catalogue when a record is first needed.


class SeedFigure(NamedTuple):
    """One row of the cheat-sheet's ridge table (C§5.2), as the seed quotes it."""

    name: str
    peak: float  # FLOP/s ("BF16 Tensor Core" in the seed's header)
    bandwidth: float  # B/s
    ridge: float  # FLOP/B as quoted
    gpu: str  # key of the closest catalogue GPU
    dtype: str = "bf16"  # what the peak really is: the V100's 125 TFLOPS is fp16 (Volta has no bf16)


SEED_TABLE: tuple[SeedFigure, ...] = (
    SeedFigure("V100", 125 * TFLOPS, 900 * GB, 138.9, "v100", "fp16"),
    SeedFigure("A100", 312 * TFLOPS, 2039 * GB, 153.0, "a100_80"),
    SeedFigure("H100 SXM", 989 * TFLOPS, 3350 * GB, 295.2, "h100_sxm"),
    SeedFigure("B200", 2250 * TFLOPS, 8000 * GB, 281.3, "b200"),
)


# --------------------------------------------------------------------------- #
# Interconnects: what a collective's β is.  NVLink figures are per GPU and, as NVIDIA quotes them,
# the total of both directions over all of a GPU's links; a ring collective sends one way at a time,
# so its β is half (``one_way``).  Network figures are per port (one NIC port per GPU in DGX/HGX
# systems) in Gb/s: 400 Gb/s = 50 GB/s each way.  PCIe is per x16 slot, each way.

class Link(NamedTuple):
    """One interconnect: its one-way bandwidth per GPU (NVLink) or per port (network, PCIe)."""

    key: str
    name: str
    family: str  # nvlink | infiniband | roce | pcie
    one_way: float  # B/s in each direction: the β of the α-β model
    quoted: str  # the figure as the source quotes it
    source: str
    gpus: tuple[str, ...] = ()  # catalogue GPUs (keys) that have it (their scale_up_link)

    @property
    def quoted_zh(self) -> str:
        """:attr:`quoted` in Chinese."""
        figure = self.quoted.split(" per ")[0].split(" both")[0]
        if self.family == "nvlink":
            return f"每卡双向合计 {figure}"
        if self.family == "pcie":
            return f"双向合计 {figure}（x16）"
        return f"每端口 {figure}"



GPUS_PER_NODE = 8  # DGX / HGX servers: 8 GPUs on one NVLink domain


def nvlink_of(gpu: GPU) -> Link | None:
    """The NVLink generation of a catalogue GPU (None: PCIe cards and non-NVIDIA parts)."""
    return next((link for link in _loaded()["NVLINKS"] if gpu.key in link.gpus), None)


# --------------------------------------------------------------------------- #
# Loading the records (lazily: on first access to one of the names below).

# Every built-in record is also a module constant named after its id: V100, H100_SXM, NVLINK4, IB_NDR ...
_COLLECTIONS = frozenset({"GPUS", "BY_KEY", "ALL", "LINKS", "LINKS_BY_KEY", "NVLINKS", "NETWORKS"})


def _round(x: float) -> float:
    """A figure in base units as the datasheet states it: a whole number of B/s or FLOP/s (0.9 TB/s is
    900,000,000,000 B/s, not 0.9 × 1e12 = 899,999,999,999.9999)."""
    return float(round(x))


def gpu_from_entry(e: dict, origin: str = "") -> GPU:
    """The record of a validated accelerators entry (question_bank.catalogue)."""
    def peak(p: str) -> float | None:
        v = e.get(f"{p}_tflops")
        return None if v is None else _round(v * TFLOPS)

    bw, nic = e.get("scale_up_bandwidth_gbs"), e.get("scale_out_nic_gbps")
    return GPU(e["id"], e["name"], _round(e["memory_gb"] * GB), _round(e["memory_bandwidth_tbs"] * TB),
               peak("fp16"), peak("bf16"), peak("fp8"), peak("fp32"), e["source"],
               memory_type=e.get("memory_type", "HBM"), notes=e.get("note", ""),
               precisions=tuple(e["precisions"]), fp4=peak("fp4"), vendor=e["vendor"], tdp=e.get("tdp_w"),
               scale_up=None if bw is None else _round(bw * GB),
               scale_up_bidirectional=e.get("scale_up_bidirectional", False),
               scale_up_domain=e.get("scale_up_domain"), scale_up_link=e.get("scale_up_link", ""),
               scale_out_nic=None if nic is None else _round(nic * 1e9 / 8),
               node_power=None if "node_power_kw" not in e else _round(e["node_power_kw"] * 1000),
               gpus_per_node=e.get("gpus_per_node"), sms=e.get("sm_count"),
               smem_per_sm=None if "smem_per_sm_kib" not in e else _round(e["smem_per_sm_kib"] * 1024),
               host_link=None if "host_link_gbs" not in e else _round(e["host_link_gbs"] * GB),
               pools=tuple(e.get("pools", ())), origin=origin)


def _load() -> None:
    from . import catalogue_cache as catalogue

    data = catalogue.builtin_entries("hardware")
    g = globals()
    accelerators = tuple(gpu_from_entry(e) for e in data["accelerators"])
    links = tuple(Link(e["id"], e["name"], e["family"], _round(e["one_way_gbs"] * GB), e["quoted"], e["source"],
                       tuple(a.key for a in accelerators if a.scale_up_link == e["id"])) for e in data["links"])
    for r in accelerators + links:
        g[r.key.upper()] = r
    g["GPUS"] = tuple(a for a in accelerators if "general" in a.pools)
    g["BY_KEY"] = {a.key: a for a in g["GPUS"]}
    g["LINKS"] = links
    g["LINKS_BY_KEY"] = {link.key: link for link in links}
    g["NVLINKS"] = tuple(link for link in links if link.family == "nvlink")
    g["NETWORKS"] = tuple(link for link in links if link.family in ("infiniband", "roce"))
    g["ALL"] = accelerators  # last: its presence means loaded


def __getattr__(name: str):
    if "ALL" not in globals() and (name in _COLLECTIONS or name.isupper()):
        _load()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _loaded() -> dict:
    """The module's globals with the records loaded (functions here read ALL, GPUS ... through it: a name
    looked up inside the module does not go through ``__getattr__``)."""
    g = globals()
    if "ALL" not in g:
        _load()
    return g


def get(key: str) -> GPU:
    """A built-in accelerator, or a user's (registered by question_bank.catalogue.load_user), by id."""
    g = _loaded()
    for gpu in g["ALL"]:
        if gpu.key == key:
            return gpu
    if key in USER:
        return USER[key]
    raise KeyError(f"unknown GPU {key!r} (one of {', '.join(g['BY_KEY'])})") from None


def with_dtype(dtype: str) -> tuple[GPU, ...]:
    """The GPUs that have a peak at ``dtype``."""
    return tuple(g for g in _loaded()["GPUS"] if g.supports(dtype))


def pool(name: str) -> tuple[GPU, ...]:
    """The built-in accelerators that join the template pool ``name`` (their ``pools``), in file order."""
    return tuple(a for a in _loaded()["ALL"] if name in a.pools)


# The user's own accelerators by id (question_bank.catalogue.load_user fills it).
USER: dict[str, GPU] = {}


# --------------------------------------------------------------------------- #
# The learner's own chip (drill practice / ask / check --hardware ID): templates that draw a GPU for a roofline,
# decode, ZeRO or fit problem draw it through :func:`draw`, which gives the chosen chip where it suits the
# problem.  ``Template.generate(seed, hardware=ID)`` sets the choice while the template runs.

# How often one problem may take the chosen chip: a template that redraws until its world fits (a model on the
# chip) falls back to the catalogue's chips after this many tries, so a chip nothing fits on ends no loop.
MAX_CHOSEN_DRAWS = 64


class _Chosen:
    __slots__ = ("gpu", "draws")

    def __init__(self, gpu: GPU) -> None:
        self.gpu, self.draws = gpu, 0


def _chosen_var():
    g = globals()
    if "_CHOSEN" not in g:
        from contextvars import ContextVar

        g["_CHOSEN"] = ContextVar("question_bank.hardware.chosen", default=None)
    return g["_CHOSEN"]


class using:  # noqa: N801 - a context manager read as a phrase: ``with hardware.using(gpu):``
    """The chip :func:`draw` gives while the block runs (None: the catalogue's draw)."""

    def __init__(self, gpu: GPU | None) -> None:
        self.chosen = _Chosen(gpu) if gpu is not None else None

    def __enter__(self) -> _Chosen | None:
        self._token = _chosen_var().set(self.chosen)
        return self.chosen

    def __exit__(self, *exc) -> None:
        _chosen_var().reset(self._token)


def usable(gpu: GPU) -> bool:
    """The chip has what every GPU-drawing template computes with: an fp32 and a 16-bit peak."""
    return gpu.fp32 is not None and (gpu.fp16 is not None or gpu.bf16 is not None)


def draw(rng, pool, accept=None) -> GPU:
    """``rng.choice(pool)``, or the learner's chosen chip (:class:`using`) when one is chosen, has the template's
    ``accept(chip)`` and has drawn fewer than MAX_CHOSEN_DRAWS times in this problem.  The seeded draw is made
    either way, so a problem with a chosen chip draws everything else as the catalogue's problem does."""
    gpu = rng.choice(pool)
    chosen = _chosen_var().get() if "_CHOSEN" in globals() else None
    if chosen is None or chosen.draws >= MAX_CHOSEN_DRAWS or not usable(chosen.gpu) \
            or (accept is not None and not accept(chosen.gpu)):
        return gpu
    chosen.draws += 1
    return chosen.gpu


def chosen() -> GPU | None:
    """The learner's chosen chip while a template runs (None: none chosen, or one no template can draw)."""
    c = _chosen_var().get() if "_CHOSEN" in globals() else None
    return c.gpu if c is not None and usable(c.gpu) else None
