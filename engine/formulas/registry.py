"""The registry the topic modules add their formulas to, and the order the catalogue lists them in.

Each topic module calls :func:`register` with its formulas when it is imported; ``engine.formulas``
imports every topic module and then exposes :func:`catalogue` as ``CATALOGUE`` and :func:`by_name` as
``FORMULAS``.  A name registered twice is a bug caught at import, not a formula silently replaced.

The catalogue's order is public: ``drill calc --list``, the JSON list and any listing of formulas
show it.  It is the order the formulas were first written in (the spec's catalogue, then the bank's
additions), which does not follow the topic modules, so :data:`LISTED_FIRST` keeps it; a formula not
named there follows, in the order its topic module registered it.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from .core import Formula

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
    # bank part 2 (issue #15): attention IO, serving, quantisation, PagedAttention, MoE capacity
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
_registered: dict[str, Formula] = {}
_ordered: tuple[Formula, ...] | None = None


def register(*formulas: Formula) -> None:
    """Add formulas to the catalogue (a topic module calls this once, at import)."""
    global _ordered
    for f in formulas:
        if f.name in _registered:
            raise ValueError(f"formula {f.name!r} is registered twice")
        _registered[f.name] = f
    _ordered = None


def catalogue() -> tuple[Formula, ...]:
    """Every registered formula, in the listed order (see the module docstring)."""
    global _ordered
    if _ordered is None:
        late = len(LISTED_FIRST)
        ranked = sorted(enumerate(_registered.values()), key=lambda kf: (_RANK.get(kf[1].name, late), kf[0]))
        _ordered = tuple(f for _, f in ranked)
    return _ordered


def by_name() -> Mapping[str, Formula]:
    """A read-only mapping name -> formula, in catalogue order."""
    return MappingProxyType({f.name: f for f in catalogue()})
