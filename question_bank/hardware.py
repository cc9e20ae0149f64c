"""Accelerator catalogue: datasheet figures, dense (no 2:4 sparsity), each with its source.

Units are base units: bytes, bytes per second, FLOP/s.  Conventions as in
``shared/spec/formulas.md``: GB = 1e9 B, TB/s = 1e12 B/s, TFLOPS = 1e12 FLOP/s.
Datasheets quote tensor-core figures "with sparsity" next to the dense ones;
every figure here is the dense one (half the sparse figure).

The seed cheat-sheet's own ridge table (C§5.2) uses slightly different figures
(V100 "bf16" 125 TFLOPS, A100 at 2039 GB/s, H100 3350 GB/s, B200 2250 TFLOPS /
8000 GB/s); it is kept as :data:`SEED_TABLE` so a problem that quotes the seed
reproduces its 138.9 / 153.0 / 295.2 / 281.3 FLOP/B.
"""

from __future__ import annotations

from dataclasses import dataclass

GB = 1e9
TB = 1e12
TFLOPS = 1e12

# Bytes per element of each precision (formulas.md conventions).
DTYPE_BYTES: dict[str, float] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
# Precisions a GPU's peak can be asked at, in the order they are usually quoted.
PEAK_DTYPES: tuple[str, ...] = ("bf16", "fp16", "fp8", "fp32")


@dataclass(frozen=True)
class GPU:
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

    def supports(self, dtype: str) -> bool:
        return dtype in PEAK_DTYPES and getattr(self, dtype) is not None

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
        """The precisions this GPU has a peak for."""
        return tuple(d for d in PEAK_DTYPES if self.supports(d))

    def ridge(self, dtype: str) -> float:
        """Ridge point (FLOP/B) at ``dtype``: peak / bandwidth."""
        return self.peak(dtype) / self.bandwidth


V100 = GPU(
    "v100", "V100 SXM2 32GB", 32 * GB, 900 * GB, fp16=125 * TFLOPS, bf16=None, fp8=None, fp32=15.7 * TFLOPS,
    source="NVIDIA Tesla V100 datasheet (SXM2): 125 TFLOPS tensor (fp16), 15.7 TFLOPS fp32, 900 GB/s, 32 GB HBM2 - "
           "https://images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf",
    notes="Volta tensor cores do fp16 only: no bf16, no fp8.",
)
A100_40 = GPU(
    "a100_40", "A100 40GB SXM", 40 * GB, 1555 * GB, fp16=312 * TFLOPS, bf16=312 * TFLOPS, fp8=None,
    fp32=19.5 * TFLOPS,
    source="NVIDIA A100 Tensor Core GPU datasheet: bf16/fp16 312 TFLOPS dense (624 sparse), fp32 19.5 TFLOPS, "
           "40 GB HBM2 at 1,555 GB/s - "
           "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    notes="fp32 is the non-tensor figure (TF32 tensor: 156 TFLOPS).",
)
A100_80 = GPU(
    "a100_80", "A100 80GB SXM", 80 * GB, 2039 * GB, fp16=312 * TFLOPS, bf16=312 * TFLOPS, fp8=None,
    fp32=19.5 * TFLOPS,
    source="NVIDIA A100 Tensor Core GPU datasheet: bf16/fp16 312 TFLOPS dense (624 sparse), fp32 19.5 TFLOPS, "
           "80 GB HBM2e at 2,039 GB/s (SXM) - "
           "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
    notes="fp32 is the non-tensor figure (TF32 tensor: 156 TFLOPS).",
)
H100_SXM = GPU(
    "h100_sxm", "H100 SXM", 80 * GB, 3.35 * TB, fp16=989 * TFLOPS, bf16=989 * TFLOPS, fp8=1979 * TFLOPS,
    fp32=67 * TFLOPS,
    source="NVIDIA H100 Tensor Core GPU datasheet (SXM): bf16/fp16 1,979 TFLOPS and fp8 3,958 TFLOPS with sparsity "
           "(dense: half), fp32 67 TFLOPS, 80 GB HBM3 at 3.35 TB/s - "
           "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
)
H100_PCIE = GPU(
    "h100_pcie", "H100 PCIe", 80 * GB, 2.0 * TB, fp16=756 * TFLOPS, bf16=756 * TFLOPS, fp8=1513 * TFLOPS,
    fp32=51 * TFLOPS,
    source="NVIDIA H100 Tensor Core GPU datasheet (PCIe): bf16/fp16 1,513 TFLOPS and fp8 3,026 TFLOPS with sparsity "
           "(dense: half), fp32 51 TFLOPS, 80 GB HBM2e at 2 TB/s - "
           "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
)
H200 = GPU(
    "h200", "H200 SXM", 141 * GB, 4.8 * TB, fp16=989 * TFLOPS, bf16=989 * TFLOPS, fp8=1979 * TFLOPS,
    fp32=67 * TFLOPS,
    source="NVIDIA H200 Tensor Core GPU datasheet (SXM): bf16/fp16 1,979 TFLOPS and fp8 3,958 TFLOPS with sparsity "
           "(dense: half), fp32 67 TFLOPS, 141 GB HBM3e at 4.8 TB/s - https://www.nvidia.com/en-us/data-center/h200/",
)
B200 = GPU(
    "b200", "B200", 180 * GB, 8.0 * TB, fp16=2250 * TFLOPS, bf16=2250 * TFLOPS, fp8=4500 * TFLOPS,
    fp32=75 * TFLOPS,
    source="NVIDIA HGX B200 datasheet, per GPU at 1,000 W: bf16/fp16 4.5 PFLOPS and fp8 9 PFLOPS with sparsity "
           "(dense: 2.25 / 4.5 PFLOPS), fp32 75 TFLOPS, 180 GB HBM3e; bandwidth 8 TB/s per GPU as in the DGX B200 "
           "datasheet (64 TB/s for 8 GPUs; a later HGX B200 sheet lists 7.7 TB/s) - "
           "https://www.nvidia.com/en-us/data-center/hgx/",
    notes="HGX B200 figures (1,000 W), not GB200 (1,200 W: 2.5 PFLOPS bf16 dense).",
)
L40S = GPU(
    "l40s", "L40S", 48 * GB, 864 * GB, fp16=362.05 * TFLOPS, bf16=362.05 * TFLOPS, fp8=733 * TFLOPS,
    fp32=91.6 * TFLOPS, memory_type="GDDR6",
    source="NVIDIA L40S datasheet: bf16/fp16 362.05 TFLOPS dense (733 sparse), fp8 733 TFLOPS dense (1,466 sparse), "
           "fp32 91.6 TFLOPS, 48 GB GDDR6 at 864 GB/s - "
           "https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413",
)
MI300X = GPU(
    "mi300x", "MI300X", 192 * GB, 5.3 * TB, fp16=1307.4 * TFLOPS, bf16=1307.4 * TFLOPS, fp8=2614.9 * TFLOPS,
    fp32=163.4 * TFLOPS,
    source="AMD Instinct MI300X data sheet: fp16/bf16 1,307.4 TFLOPS dense (2,614.9 with sparsity), fp8 2,614.9 "
           "TFLOPS dense, fp32 matrix 163.4 TFLOPS, 192 GB HBM3 at 5.3 TB/s - "
           "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf",
    notes="fp32 is the matrix-core figure.",
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


@dataclass(frozen=True)
class SeedFigure:
    """One row of the cheat-sheet's ridge table (C§5.2), as the seed quotes it."""

    name: str
    peak: float  # FLOP/s ("BF16 Tensor Core" in the seed)
    bandwidth: float  # B/s
    ridge: float  # FLOP/B as quoted
    gpu: str  # key of the closest catalogue GPU


SEED_TABLE: tuple[SeedFigure, ...] = (
    SeedFigure("V100", 125 * TFLOPS, 900 * GB, 138.9, "v100"),
    SeedFigure("A100", 312 * TFLOPS, 2039 * GB, 153.0, "a100_80"),
    SeedFigure("H100 SXM", 989 * TFLOPS, 3350 * GB, 295.2, "h100_sxm"),
    SeedFigure("B200", 2250 * TFLOPS, 8000 * GB, 281.3, "b200"),
)
SEED_SOURCE = "seed cheat-sheet C§5.2 (shared/seeds/002_9821af7750ba1ae9.txt, 模块五 table)"
