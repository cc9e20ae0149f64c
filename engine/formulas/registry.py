"""The registry the topic modules add their formulas to, and the order the catalogue lists them in.

Each topic module (one of :data:`TOPICS`) calls :func:`register` with its formulas when it is
imported.  A topic module is imported when one of its formulas is first asked for by name
(:func:`find`, through an index of which module defines which formula) or when the whole catalogue
is (:func:`catalogue`, ``engine.formulas.CATALOGUE``): the app's first problem needs one formula,
and importing all twenty topic modules cost it about 20M instructions (docs/performance.md).  The index
is a cache, ``engine/formulas/__pycache__/formula-index.marshal``, used only while the
topic modules have the size and modification time it was built from and the Python version is the
same, and written only where Python writes its bytecode, as the template index is; without a usable
one every topic module is imported.  A name registered twice is a bug caught at import, not a
formula silently replaced.

The catalogue's order is public: ``drill calc --list``, the JSON list and any listing of formulas
show it.  It is the order the formulas were first written in (the spec's catalogue, then the bank's
additions), which does not follow the topic modules, so :data:`LISTED_FIRST` keeps it; a formula not
named there follows, in the order its topic module registered it.
"""

from __future__ import annotations

import marshal  # a private cache of plain data: read several times faster than JSON
import os
import sys
from collections.abc import Mapping
from importlib import import_module
from pathlib import Path
from types import MappingProxyType

from .core import Formula

# the topic modules, in the order their formulas are registered (a formula not in LISTED_FIRST is listed in it)
TOPICS: tuple[str, ...] = (
    "attention", "capacity", "checkpointing", "communication", "compute", "cost", "data_pipeline", "disaggregation",
    "facility", "inference",
    "long_context", "memory", "moe", "network", "parallelism", "pipeline", "post_training", "quantisation",
    "queueing", "roofline", "serving",
    "rl", "expert_parallel", "tensor_parallel", "fsdp",
)
PACKAGE = __name__.rpartition(".")[0]
FOLDER = Path(__file__).resolve().parent
INDEX = FOLDER / "__pycache__" / "formula-index.marshal"
INDEX_VERSION = 1

LISTED_FIRST: tuple[str, ...] = (
    # the spec's catalogue (seeds): memory, communication, MFU, inference, roofline, pipeline
    "train_static_bytes", "zero1_bytes", "zero2_bytes", "zero3_bytes", "weights_bytes", "min_gpus",
    "activation_bytes_layer", "activation_bytes_layer_swiglu", "activation_bytes_selective",
    "activation_bytes_full_recompute",
    "allreduce_bytes", "reduce_scatter_bytes", "allgather_bytes", "alltoall_bytes", "p2p_bytes",
    "allreduce_time", "reduce_scatter_time", "allgather_time", "alltoall_time", "p2p_time",
    "train_flops_per_token", "forward_flops_per_token", "mfu", "hfu", "train_flops", "train_time",
    "kv_cache_bytes", "kv_bytes_per_token", "decode_tokens_per_s", "decode_tokens_per_s_batch", "critical_batch",
    "prefill_time",
    "arithmetic_intensity", "ridge_point", "attainable_flops", "gemm_intensity", "param_count",
    "bubble_1f1b", "bubble_interleaved", "bubble_asymmetric",
    # added by the question bank
    "max_batch_fit", "micro_batches_for_bubble", "whole_model_activation_bytes", "tp_allreduce_bytes_layer",
    "comm_bytes_zero3_step", "mfu_from_step_time",
    # attention IO, serving, quantisation, PagedAttention, MoE capacity
    "attention_hbm_bytes", "flash_attention_hbm_bytes", "attention_intensity", "fusion_bytes_saved", "hbm_time",
    "max_batch_tpot", "quant_weights_bytes", "quant_decode_speedup", "paged_kv_waste_tokens", "paged_max_seqs",
    "moe_expert_capacity",
    # the spec's part 2
    "moe_total_params", "moe_active_params", "moe_alltoall_bytes", "activation_bytes_layer_tp",
    "activation_bytes_layer_tp_sp", "zero1_parallel_bytes", "zero2_parallel_bytes", "zero3_parallel_bytes",
    "allreduce_busbw", "decode_step_time", "ttft", "decode_attention_intensity", "mla_kv_bytes_per_token",
    "quant_bits_per_weight", "paged_kv_blocks", "spec_decode_tokens_per_step", "spec_decode_speedup",
    "chinchilla_tokens", "chinchilla_params",
    # added by the question bank beside part 2
    "param_count_approx", "tp_allreduce_time_layer", "nccl_algbw", "tree_allreduce_time", "bucketed_allreduce_time",
    "ddp_exposed_comm_time",
    "compute_budget", "inflight_microbatches_1f1b", "stage_activation_bytes", "interleaved_activation_factor",
    "step_time_with_bubble",
)

_RANK = {name: k for k, name in enumerate(LISTED_FIRST)}
_TOPIC_RANK = {f"{PACKAGE}.{t}": k for k, t in enumerate(TOPICS)}
_registered: dict[str, Formula] = {}
_module_of: dict[str, str] = {}  # formula name -> the module that registered it
_ordered: tuple[Formula, ...] | None = None
_index: dict[str, str] | None = None  # formula name -> topic module (short name)


def register(*formulas: Formula) -> None:
    """Add formulas to the catalogue (a topic module calls this once, at import)."""
    global _ordered
    module = sys._getframe(1).f_globals.get("__name__", "")  # the caller: where a formula is found again
    for f in formulas:
        if f.name in _registered:
            raise ValueError(f"formula {f.name!r} is registered twice")
        _registered[f.name] = f
        _module_of[f.name] = module
    _ordered = None


def load_all() -> None:
    """Import every topic module (their formulas register themselves)."""
    for topic in TOPICS:
        import_module(f"{PACKAGE}.{topic}")


def catalogue() -> tuple[Formula, ...]:
    """Every formula, in the listed order (see the module docstring), whatever order the topics were loaded in."""
    global _ordered
    if _ordered is None:
        load_all()
        late, topics = len(LISTED_FIRST), len(TOPICS)
        ranked = sorted(enumerate(_registered.values()),
                        key=lambda kf: (_RANK.get(kf[1].name, late), _TOPIC_RANK.get(_module_of[kf[1].name], topics),
                                        kf[0]))
        _ordered = tuple(f for _, f in ranked)
    return _ordered


def by_name() -> Mapping[str, Formula]:
    """A read-only mapping name -> formula, in catalogue order."""
    return MappingProxyType({f.name: f for f in catalogue()})


def find(name: str) -> Formula | None:
    """The formula called ``name``, importing only the topic module that defines it; None: there is none."""
    f = _registered.get(name)
    if f is None:
        topic = index().get(name)
        if topic is not None:
            import_module(f"{PACKAGE}.{topic}")
            f = _registered.get(name)
    return f


def _stamps() -> list:
    out: list = [sys.version, INDEX_VERSION]
    for topic in TOPICS:
        st = (FOLDER / f"{topic}.py").stat()
        out.append([topic, st.st_size, st.st_mtime_ns])
    return out


def index() -> dict[str, str]:
    """Formula name -> the topic module defining it, from the cache when it is up to date (else built)."""
    global _index
    if _index is not None:
        return _index
    try:
        stamps = _stamps()
    except OSError:  # a topic module without its source (a frozen or zipped install): build it
        stamps = None
    if stamps is not None:
        try:
            data = marshal.loads(INDEX.read_bytes())
            if data["stamps"] == stamps:
                _index = data["index"]
                return _index
        except (OSError, ValueError, EOFError, KeyError, TypeError):
            pass
    load_all()
    _index = {name: module.rpartition(".")[2] for name, module in _module_of.items()
              if _TOPIC_RANK.get(module) is not None}
    if stamps is not None:
        _write_index(stamps, _index)
    return _index


def _write_index(stamps: list, built: dict[str, str]) -> None:
    """Keep the index where Python keeps bytecode (never under PYTHONDONTWRITEBYTECODE or read-only)."""
    folder = INDEX.parent
    if sys.dont_write_bytecode or not os.access(folder if folder.exists() else FOLDER, os.W_OK):
        return
    tmp = INDEX.with_name(f"{INDEX.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(exist_ok=True)
        tmp.write_bytes(marshal.dumps({"stamps": stamps, "index": built}))
        os.replace(tmp, INDEX)  # whole or not at all: a reader never sees half an index
    except OSError:  # a cache: not written is only slower next time
        try:
            tmp.unlink()
        except OSError:
            pass
