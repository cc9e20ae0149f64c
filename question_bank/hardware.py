"""Accelerator catalogue: datasheet figures, dense (no 2:4 sparsity), each with its source.

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

from typing import NamedTuple

GB = 1e9
TB = 1e12
TFLOPS = 1e12

# Bytes per element of each precision (formulas.md conventions).
DTYPE_BYTES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
# Precisions a GPU's peak can be asked at, in the order they are usually quoted.
PEAK_DTYPES: tuple[str, ...] = ("bf16", "fp16", "fp8", "fp32")
# Every precision a GPU record may list in ``precisions`` (the formats its math runs in: fp32 on the
# CUDA / vector cores, the rest as tensor-core / matrix-core formats).
PRECISIONS: tuple[str, ...] = ("fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4")
# Weight-only quantised storage: int8 / int4 weights are dequantised to 16-bit on the fly by the GEMM
# kernel (GPTQ / AWQ / bitsandbytes style), so any GPU with fp16 math can serve them; the math runs in 16-bit.
WEIGHT_ONLY: tuple[str, ...] = ("int8", "int4")


# The catalogue's records are NamedTuples: immutable and compared by value like frozen dataclasses, and
# several times cheaper to define at import, which the app's first problem waits for (bench_startup).
class GPU(NamedTuple):
    """One accelerator: memory, memory bandwidth and dense peak compute per precision."""

    key: str  # short identifier: "h100_sxm"
    name: str  # as people say it: "H100 SXM"
    memory: float  # bytes (GB = 1e9 B)
    bandwidth: float  # memory bandwidth, B/s
    fp16: float  # dense fp16 tensor-core FLOP/s
    bf16: float | None  # dense bf16 tensor-core FLOP/s (None: not supported)
    fp8: float | None  # dense fp8 tensor-core FLOP/s (None: not supported)
    fp32: float  # fp32 FLOP/s (non-tensor unless noted)
    source: str  # datasheet name + URL
    memory_type: str = "HBM"
    notes: str = ""
    # Formats the chip computes in, from its datasheet (see PRECISIONS): fp32 plus its tensor-core formats.
    precisions: tuple[str, ...] = ()

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


# Each figure below is followed by the document it was checked against.  "(sparse N)" is the
# datasheet's "with sparsity" figure; the catalogue keeps the dense one, N / 2.

# NVIDIA Tesla V100 datasheet (r5, covers V100 SXM2 / PCIe / V100S): SXM2 column.
V100 = GPU(
    "v100", "V100 SXM2 32GB",
    memory=32 * GB,  # "GPU Memory 32 GB / 16 GB HBM2"
    bandwidth=900 * GB,  # "Memory Bandwidth 900 GB/sec"
    fp16=125 * TFLOPS,  # "Tensor Performance 125 TFLOPS" (SXM2; PCIe 112); Volta has no 2:4 sparsity
    bf16=None, fp8=None,  # Volta tensor cores: fp16 only
    fp32=15.7 * TFLOPS,  # "Single-Precision Performance 15.7 TFLOPS" (SXM2; PCIe 14)
    source="NVIDIA Tesla V100 GPU Accelerator datasheet, SXM2 column: 125 TFLOPS tensor (fp16), "
           "15.7 TFLOPS fp32, 900 GB/s, 32 GB HBM2 - "
           "https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf",
    notes="Volta tensor cores do fp16 only: no bf16, no fp8.",
    # datasheet rows: "Tensor Performance" (fp16 mixed precision), double/single precision; int8 only via
    # DP4A on the CUDA cores (no tensor-core int8 before Turing), no tf32 (new in Ampere)
    precisions=("fp32", "fp16"),
)
# NVIDIA A100 Tensor Core GPU datasheet (r4): columns A100 40GB SXM and A100 80GB SXM.
A100_40 = GPU(
    "a100_40", "A100 40GB SXM",
    memory=40 * GB,  # "GPU Memory 40GB HBM2"
    bandwidth=1555 * GB,  # "GPU Memory Bandwidth 1,555GB/s" (40GB PCIe and SXM alike)
    fp16=312 * TFLOPS, bf16=312 * TFLOPS,  # "BFLOAT16 / FP16 Tensor Core 312 TFLOPS | 624 TFLOPS*"
    fp8=None,  # Ampere has no fp8 tensor cores
    fp32=19.5 * TFLOPS,  # "FP32 19.5 TFLOPS" (non-tensor; "TF32 Tensor Core 156 TFLOPS" is another row)
    source="NVIDIA A100 Tensor Core GPU datasheet, A100 40GB SXM column: bf16/fp16 312 TFLOPS dense "
           "(624 with sparsity), fp32 19.5 TFLOPS, 40 GB HBM2 at 1,555 GB/s - "
           "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    notes="fp32 is the non-tensor figure (TF32 tensor: 156 TFLOPS).",
    # datasheet rows: TF32, BFLOAT16, FP16, INT8 (624 TOPS) and INT4 (1,248 TOPS) Tensor Core; no FP8 row
    precisions=("fp32", "tf32", "fp16", "bf16", "int8", "int4"),
)
A100_80 = GPU(
    "a100_80", "A100 80GB SXM",
    memory=80 * GB,  # "GPU Memory 80GB HBM2e"
    bandwidth=2039 * GB,  # "GPU Memory Bandwidth 2,039GB/s" (SXM; the 80GB PCIe card: 1,935GB/s)
    fp16=312 * TFLOPS, bf16=312 * TFLOPS,  # same tensor rows as the 40GB card
    fp8=None,
    fp32=19.5 * TFLOPS,
    source="NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column: bf16/fp16 312 TFLOPS dense "
           "(624 with sparsity), fp32 19.5 TFLOPS, 80 GB HBM2e at 2,039 GB/s - "
           "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    notes="fp32 is the non-tensor figure (TF32 tensor: 156 TFLOPS).",
    precisions=("fp32", "tf32", "fp16", "bf16", "int8", "int4"),  # as the 40GB card (same datasheet rows)
)
# NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column (the H100 whitepaper gives 989.4 dense).
H100_SXM = GPU(
    "h100_sxm", "H100 SXM",
    memory=80 * GB,  # "GPU memory 80GB" (HBM3)
    bandwidth=3.35 * TB,  # "GPU memory bandwidth 3.35TB/s"
    fp16=989 * TFLOPS, bf16=989 * TFLOPS,  # "BFLOAT16 / FP16 Tensor Core 1,979 teraFLOPS*" (sparse)
    fp8=1979 * TFLOPS,  # "FP8 Tensor Core 3,958 teraFLOPS*" (sparse)
    fp32=67 * TFLOPS,  # "FP32 67 teraFLOPS" (non-tensor)
    source="NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column: bf16/fp16 1,979 TFLOPS and fp8 3,958 "
           "TFLOPS with sparsity (dense: half), fp32 67 TFLOPS, 80 GB HBM3 at 3.35 TB/s - "
           "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
    # datasheet rows: TF32, BFLOAT16, FP16, FP8 and INT8 (3,958 TOPS*) Tensor Core; Hopper lists no INT4 row
    precisions=("fp32", "tf32", "fp16", "bf16", "fp8", "int8"),
)
# The 2022 H100 datasheet had an "H100 PCIe" column next to SXM; later editions at the same URL
# replace it with H100 NVL (94 GB, 3.9 TB/s), so the PCIe card's own product brief is cited too.
H100_PCIE = GPU(
    "h100_pcie", "H100 PCIe",
    memory=80 * GB,  # 80 GB HBM2e (datasheet PCIe column; product brief)
    bandwidth=2.0 * TB,  # "2,000 GB/sec" (datasheet PCIe column; product brief: "greater than 2,000 GBps")
    fp16=756 * TFLOPS, bf16=756 * TFLOPS,  # "BFLOAT16 / FP16 Tensor Core 1,513 teraFLOPS*" (sparse)
    fp8=1513 * TFLOPS,  # "FP8 Tensor Core 3,026 teraFLOPS*" (sparse)
    fp32=51 * TFLOPS,  # "FP32 51 teraFLOPS" (non-tensor)
    source="NVIDIA H100 Tensor Core GPU datasheet (2022 edition), H100 PCIe column: bf16/fp16 1,513 TFLOPS "
           "and fp8 3,026 TFLOPS with sparsity (dense: half), fp32 51 TFLOPS, 80 GB HBM2e at 2,000 GB/s - "
           "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet ; memory and "
           "bandwidth also in the NVIDIA H100 PCIe GPU product brief PB-11133-001 - "
           "https://www.nvidia.com/content/dam/en-zz/Solutions/gtcs22/data-center/h100/PB-11133-001_v01.pdf",
    notes="Not the H100 NVL (94 GB, 3.9 TB/s) that later editions of the datasheet list instead.",
    precisions=("fp32", "tf32", "fp16", "bf16", "fp8", "int8"),  # same rows as the SXM column (INT8 3,026 TOPS*)
)
# NVIDIA H200 Tensor Core GPU datasheet (SC23), H200 SXM column: same GH100 compute as H100 SXM.
H200 = GPU(
    "h200", "H200 SXM",
    memory=141 * GB,  # "GPU memory 141GB" (HBM3e)
    bandwidth=4.8 * TB,  # "GPU memory bandwidth 4.8TB/s"
    fp16=989 * TFLOPS, bf16=989 * TFLOPS,  # "BFLOAT16 / FP16 Tensor Core 1,979 TFLOPS*" (sparse)
    fp8=1979 * TFLOPS,  # "FP8 Tensor Core 3,958 TFLOPS*" (sparse)
    fp32=67 * TFLOPS,  # "FP32 67 TFLOPS" (non-tensor), as H100 SXM
    source="NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column: bf16/fp16 1,979 TFLOPS and fp8 3,958 "
           "TFLOPS with sparsity (dense: half), fp32 67 TFLOPS, 141 GB HBM3e at 4.8 TB/s - "
           "https://nvdam.widen.net/s/nb5zzzsjdf/hpc-datasheet-sc23-h200-datasheet-3002446 "
           "(product page: https://www.nvidia.com/en-us/data-center/h200/)",
    precisions=("fp32", "tf32", "fp16", "bf16", "fp8", "int8"),  # datasheet: TF32 ... INT8 Tensor Core 3,958 TOPS*
)
# B200 as shipped in HGX / DGX B200 (1,000 W), not GB200 (1,200 W: 2.5 PFLOPS bf16 dense).
# Per-GPU figures: "NVIDIA Blackwell Datasheet", table "Individual Blackwell GPU Specifications",
# HGX B200 column (footnote: "All Tensor Core numbers except FP64 with sparsity").  No NVIDIA URL
# for that PDF could be confirmed, so it is cited by title; the HGX page lists the same 8-GPU totals.
B200 = GPU(
    "b200", "B200",
    memory=180 * GB,  # datasheet: "180GB HBM3E"; DGX B200: "1,440GB total GPU memory" = 8 x 180 GB
    bandwidth=8.0 * TB,  # DGX B200: "64TB/s HBM3e bandwidth" = 8 x 8 TB/s (the datasheet row says 7.7TB/s)
    fp16=2250 * TFLOPS, bf16=2250 * TFLOPS,  # datasheet: "FP16/BF16 Tensor Core 4.5 PFLOPS" (sparse)
    fp8=4500 * TFLOPS,  # datasheet: "FP8/FP6 Tensor Core 9 PFLOPS" (sparse)
    fp32=75 * TFLOPS,  # datasheet: "FP32 75 TFLOPS" (not a tensor figure, so not halved)
    source="NVIDIA Blackwell Datasheet, 'Individual Blackwell GPU Specifications', HGX B200 column: bf16/fp16 "
           "4.5 PFLOPS and fp8 9 PFLOPS with sparsity (dense: 2.25 / 4.5 PFLOPS), fp32 75 TFLOPS, 180 GB HBM3e "
           "(8-GPU totals on https://www.nvidia.com/en-us/data-center/hgx/); bandwidth 8 TB/s per GPU = "
           "64 TB/s / 8 in the DGX B200 datasheet - https://www.nvidia.com/en-us/data-center/dgx-b200/ "
           "(the Blackwell datasheet row lists 7.7 TB/s)",
    notes="HGX/DGX B200 figures (1,000 W), not GB200 (1,200 W: 2.5 PFLOPS bf16 dense). "
          "8 TB/s is the DGX B200 (and seed) figure; the newer per-GPU row says 7.7 TB/s.",
    # Blackwell datasheet rows: TF32, FP16/BF16, FP8/FP6, FP4 and INT8 Tensor Core (FP6 / FP4 not modelled here)
    precisions=("fp32", "tf32", "fp16", "bf16", "fp8", "int8"),
)
# NVIDIA L40S datasheet: dense and sparse figures side by side ("362.05 | 733*").
L40S = GPU(
    "l40s", "L40S",
    memory=48 * GB,  # "GPU Memory 48GB GDDR6 with ECC"
    bandwidth=864 * GB,  # "Memory Bandwidth 864GB/s"
    fp16=362.05 * TFLOPS, bf16=362.05 * TFLOPS,  # "BFLOAT16 / FP16 Tensor Core 362.05 | 733*"
    fp8=733 * TFLOPS,  # "FP8 Tensor Core 733 | 1,466*"
    fp32=91.6 * TFLOPS,  # "FP32 91.6 TFLOPS"
    memory_type="GDDR6",
    source="NVIDIA L40S datasheet: bf16/fp16 362.05 TFLOPS dense (733 sparse), fp8 733 TFLOPS dense (1,466 sparse), "
           "fp32 91.6 TFLOPS, 48 GB GDDR6 at 864 GB/s - "
           "https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413",
    # datasheet rows: TF32, BFLOAT16, FP16, FP8 (Ada), INT8 and INT4 Tensor (733 | 1,466* TOPS each)
    precisions=("fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"),
)
# AMD Instinct MI300X data sheet: dense figures, with-sparsity ones listed separately.
MI300X = GPU(
    "mi300x", "MI300X",
    memory=192 * GB,  # "192 GB HBM3"
    bandwidth=5.3 * TB,  # "Peak Theoretical Memory Bandwidth 5.3 TB/s"
    fp16=1307.4 * TFLOPS, bf16=1307.4 * TFLOPS,  # "Peak FP16 / BF16 1307.4 TFLOPs" (2614.9 with sparsity)
    fp8=2614.9 * TFLOPS,  # "Peak FP8 2614.9 TFLOPs" (5229.8 with sparsity)
    fp32=163.4 * TFLOPS,  # "Peak FP32 Vector 163.4 TFLOPs" (FP32 Matrix is also 163.4)
    source="AMD Instinct MI300X data sheet: fp16/bf16 1,307.4 TFLOPS dense (2,614.9 with sparsity), fp8 2,614.9 "
           "TFLOPS dense (5,229.8 with sparsity), fp32 vector and matrix 163.4 TFLOPS, 192 GB HBM3 at 5.3 TB/s - "
           "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf",
    notes="fp32 vector (non-matrix) and fp32 matrix peaks are both 163.4 TFLOPS.",
    # data sheet rows: Peak TF32 653.7, FP16 / BF16 1,307.4, FP8 2,614.9 TFLOPs, INT8 2,614.9 TOPs; no INT4 row
    precisions=("fp32", "tf32", "fp16", "bf16", "fp8", "int8"),
)

GPUS: tuple[GPU, ...] = (V100, A100_40, A100_80, H100_SXM, H100_PCIE, H200, B200, L40S, MI300X)
BY_KEY: dict[str, GPU] = {g.key: g for g in GPUS}


def get(key: str) -> GPU:
    try:
        return BY_KEY[key]
    except KeyError:
        raise KeyError(f"unknown GPU {key!r} (one of {', '.join(BY_KEY)})") from None


def with_dtype(dtype: str) -> tuple[GPU, ...]:
    """The GPUs that have a peak at ``dtype``."""
    return tuple(g for g in GPUS if g.supports(dtype))


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
SEED_SOURCE = "seed cheat-sheet C§5.2 (shared/seeds/002_9821af7750ba1ae9.txt, 模块五 table)"


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
    gpus: tuple[str, ...] = ()  # catalogue GPUs (keys) that have it

    @property
    def quoted_zh(self) -> str:
        """:attr:`quoted` in Chinese."""
        figure = self.quoted.split(" per ")[0].split(" both")[0]
        if self.family == "nvlink":
            return f"每卡双向合计 {figure}"
        if self.family == "pcie":
            return f"双向合计 {figure}（x16）"
        return f"每端口 {figure}"

    @property
    def bidirectional(self) -> float:
        return 2 * self.one_way


GBIT = 1e9 / 8  # bytes per second in one Gb/s

NVLINK2 = Link("nvlink2", "NVLink 2 (Volta)", "nvlink", 150 * GB,  # 6 links x 25 GB/s each way
               "300 GB/s per GPU, both directions together",
               "NVIDIA Tesla V100 datasheet (r5), SXM2 column: 'Interconnect Bandwidth NVLink 300 GB/s' - "
               "https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf",
               ("v100",))
NVLINK3 = Link("nvlink3", "NVLink 3 (Ampere)", "nvlink", 300 * GB,  # 12 links x 25 GB/s each way
               "600 GB/s per GPU, both directions together",
               "NVIDIA A100 datasheet (r4): 'NVLink: 600GB/s' (SXM; PCIe cards with a bridge: 600GB/s for 2 GPUs) - "
               "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
               ("a100_40", "a100_80"))
NVLINK4 = Link("nvlink4", "NVLink 4 (Hopper)", "nvlink", 450 * GB,  # 18 links x 25 GB/s each way
               "900 GB/s per GPU, both directions together",
               "NVIDIA H100 datasheet, SXM column: 'Interconnect NVLink: 900GB/s' (H200 SXM datasheet: the same) - "
               "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
               ("h100_sxm", "h200"))
NVLINK5 = Link("nvlink5", "NVLink 5 (Blackwell)", "nvlink", 900 * GB,  # 18 links x 50 GB/s each way
               "1.8 TB/s per GPU, both directions together",
               "NVIDIA DGX B200 datasheet: '1.8TB/s NVLink bandwidth per GPU' (14.4 TB/s over 8 GPUs) - "
               "https://www.nvidia.com/en-us/data-center/dgx-b200/",
               ("b200",))
IB_HDR = Link("ib_hdr", "InfiniBand HDR (200 Gb/s)", "infiniband", 200 * GBIT, "200 Gb/s per port",
              "NVIDIA ConnectX-6 VPI adapter datasheet: 'up to 200Gb/s HDR InfiniBand'; DGX A100: 8 x single-port "
              "ConnectX-6 for the compute fabric - https://www.nvidia.com/en-us/networking/ethernet/connectx-6/")
IB_NDR = Link("ib_ndr", "InfiniBand NDR (400 Gb/s)", "infiniband", 400 * GBIT, "400 Gb/s per port",
              "NVIDIA ConnectX-7 adapter datasheet: 'up to 400Gb/s NDR InfiniBand'; DGX H100: 8 x ConnectX-7, one "
              "400 Gb/s port per GPU - https://www.nvidia.com/en-us/networking/infiniband/connectx-7/")
IB_XDR = Link("ib_xdr", "InfiniBand XDR (800 Gb/s)", "infiniband", 800 * GBIT, "800 Gb/s per port",
              "NVIDIA Quantum-X800 InfiniBand platform / ConnectX-8 SuperNIC: '800Gb/s' per port - "
              "https://www.nvidia.com/en-us/networking/products/infiniband/quantum-x800/")
ROCE_400 = Link("roce_400", "RoCE 400GbE", "roce", 400 * GBIT, "400 Gb/s per port",
                "NVIDIA ConnectX-7 adapter datasheet: 'up to 400Gb/s Ethernet' with RoCE - "
                "https://www.nvidia.com/en-us/networking/ethernet/connectx-7/")
PCIE4 = Link("pcie4", "PCIe Gen4 x16", "pcie", 32 * GB, "64 GB/s both directions together, 16 GT/s x 16 lanes",
             "PCI-SIG PCI Express 4.0 base specification: 16 GT/s per lane, 128b/130b encoding (31.5 GB/s each "
             "way for x16, quoted as 32); A100 datasheet: 'PCIe Gen4: 64GB/s' - https://pcisig.com/specifications")
PCIE5 = Link("pcie5", "PCIe Gen5 x16", "pcie", 64 * GB, "128 GB/s both directions together, 32 GT/s x 16 lanes",
             "PCI-SIG PCI Express 5.0 base specification: 32 GT/s per lane (63 GB/s each way for x16, quoted as "
             "64); H100 datasheet: 'PCIe Gen5: 128GB/s' - https://pcisig.com/specifications")

LINKS: tuple[Link, ...] = (NVLINK2, NVLINK3, NVLINK4, NVLINK5, IB_HDR, IB_NDR, IB_XDR, ROCE_400, PCIE4, PCIE5)
NVLINKS: tuple[Link, ...] = (NVLINK2, NVLINK3, NVLINK4, NVLINK5)
NETWORKS: tuple[Link, ...] = (IB_HDR, IB_NDR, IB_XDR, ROCE_400)
GPUS_PER_NODE = 8  # DGX / HGX servers: 8 GPUs on one NVLink domain


def nvlink_of(gpu: GPU) -> Link | None:
    """The NVLink generation of a catalogue GPU (None: PCIe cards and non-NVIDIA parts)."""
    return next((link for link in NVLINKS if gpu.key in link.gpus), None)
