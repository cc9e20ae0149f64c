"""Which single template drills each step of a chain, and which full template each scaffold leads to.

One table each, in one place: the learning loop reads them (engine.schedule.chains), a test
checks every template named here exists, that each chain's row has one entry per step, and that every
"formula given" scaffold is listed.

* :data:`CHAIN_STEPS`: chain id -> one entry per step (in order): the single template that practises that
  step alone, or None when no single template does (a judgement step, a formula only chains ask).  A chain
  whose answer fails in exactly one step makes that step's template due the next day, and a chain is met
  only once the single templates of its steps have each been passed.
* :data:`SCAFFOLDS`: a "formula given" template -> the template that asks the same without the formula (or
  None when the bank has none).  Once that full template has been passed twice, the scaffold retires: it is
  no longer scheduled and leaves the "templates left" counts and readiness.
"""

from __future__ import annotations

CHAIN_STEPS: dict[str, tuple[str | None, ...]] = {
    # each step's single template where the bank has one
    "cost.training_run_chain": ("mfu.train_flops", None, None),
    "cost.double_mfu": (None, None, None, None),
    "cost.training_energy_chain": ("mfu.train_flops", None, "cost.training_energy"),
    "cost.serving_energy_chain": ("inference.decode_tps_batch", "cost.joules_per_token", "cost.per_mtok"),
    "memory.lora_chain": ("memory.lora_params", None),
    "communication.tp_decode_chain": ("communication.tp_decode_allreduce", "communication.tp_decode_allreduce",
                                      "communication.tp_max_degree"),
    "parallelism.fsdp_hsdp_chain": ("parallelism.fsdp_min_tokens", "parallelism.hsdp_comm_bytes"),
    "communication.tp_scaling": ("communication.tp_max_degree", None),
    "cost.power_budget_chain": ("cost.it_power_per_gpu", "cost.facility_power", "cost.gpus_for_power",
                                "cost.gpus_per_rack"),
    "cost.buy_or_rent_chain": ("cost.owned_gpu_hour", "cost.breakeven_utilisation"),
    "serving.queueing_chain": ("serving.mm1_wait", "serving.mm1_response_time", "serving.mm1_response_percentile",
                               "serving.mm1_max_rate_for_slo"),
    "moe.wide_ep_decode_chain": ("moe.experts_per_gpu", "moe.a2a_bytes_per_token", "moe.ep_decode_comm_time",
                                 "moe.distinct_experts"),
    "parallelism.rl_async_chain": ("communication.rl_weight_sync", "parallelism.rl_step_time",
                                   "parallelism.rl_gen_gpu_share"),
    "memory.qlora_chain": ("memory.qlora_base", "memory.lora_params", None),
    "memory.rl_memory_chain": ("memory.ppo_static", None, "memory.grpo_static", None),
    "inference.rollout_chain": ("inference.rollout_tokens", None, "serving.tpot", None),
    "serving.prefix_cache_chain": ("serving.prefix_cache_flops", "serving.ttft", "serving.ttft"),
    "serving.kv_offload_chain": ("inference.kv_cache_size", "serving.kv_offload_time", "serving.kv_offload_time",
                                 "serving.ttft"),
    "parallelism.batch_chain": ("parallelism.grad_accum", None),
    "reliability.checkpoint_chain": (None, None, None, "reliability.young_daly"),
    "reliability.goodput_chain": (None, "reliability.young_daly", None),
    "serving.capacity_chain": (None, "serving.littles_law", None),
    "communication.ring_attention_overlap": ("communication.ring_attention_kv", None, None),
    "mfu.long_context_flops_chain": ("mfu.attention_share", "mfu.attention_share", "mfu.attention_share_seq"),
    "mfu.overtraining_chain": ("mfu.chinchilla_loss", "mfu.chinchilla_params", "mfu.chinchilla_loss"),
    "roofline.fp8_chain": ("roofline.ridge_named", "roofline.critical_batch", None, "roofline.attainable"),
    "roofline.chain_batching": ("roofline.gemm_intensity", "roofline.attainable", "roofline.critical_batch", None),
    "roofline.chain_fusion": ("roofline.fusion_bytes_saved", None, "roofline.intensity_counts", None),
    "roofline.chain_interview": ("roofline.ridge_named", "roofline.gemm_intensity", None, None),
    "roofline.chain_flash_attention": (
        "roofline.attention_hbm_standard", "roofline.attention_intensity", None, "roofline.flash_attention_hbm",
    ),
    "roofline.chain_layer_by_layer": ("roofline.intensity_counts", None, "roofline.intensity_counts", None),
    "memory.activation_chain": (
        "memory.activation_layer", "memory.activation_model", "memory.activation_recompute", None,
        "memory.activation_model",
    ),
    "memory.activation_tp_chain": (
        "memory.activation_layer", "memory.activation_tp", "memory.activation_tp_sp", None, None,
    ),
    "memory.param_count_chain": ("memory.param_count_approx", "memory.param_count", "inference.weights_bytes"),
    "memory.zero_planning": (
        "memory.static", "memory.zero_per_gpu", "memory.zero_per_gpu", "inference.min_gpus_serving",
    ),
    "communication.ddp_chain": (
        "inference.weights_bytes", "communication.allreduce_bytes_given", "communication.allreduce_time",
    ),
    "communication.nccl_chain": (None, "communication.busbw_given", None),
    "communication.tree_vs_ring": ("communication.allreduce_time", None, None),
    "communication.zero3_chain": (
        "inference.weights_bytes", "communication.collective_bytes", "communication.collective_time",
        "communication.allreduce_time",
    ),
    "communication.context_parallel_chain": (
        "communication.ring_attention_kv", "communication.ulysses_alltoall", None,
    ),
    "communication.fabric_chain": (None, "communication.bisection_bandwidth"),
    "communication.ddp_overlap_chain": ("inference.weights_bytes", "communication.allreduce_time", None, None),
    "mfu.budget_chain": ("mfu.train_flops", "mfu.mfu", "mfu.train_time"),
    "mfu.chinchilla_chain": ("mfu.train_flops", "mfu.chinchilla_params", "mfu.chinchilla_tokens"),
    "mfu.mfu_judgement": ("mfu.mfu", "mfu.hfu", None),
    "mfu.utilisation_chain": ("mfu.mfu", "mfu.hfu", "mfu.train_time"),
    "inference.chain_decode": (
        "inference.weights_bytes", "inference.kv_cache_size", "inference.decode_tps_batch",
        "roofline.critical_batch",
    ),
    "inference.chain_capacity": (
        "inference.weights_bytes", "inference.kv_cache_size", "inference.max_batch_fit",
        "inference.decode_tps_batch",
    ),
    "inference.chain_mla_vs_gqa": (
        "inference.mla_kv_per_token", "inference.kv_bytes_per_token", "serving.paged_capacity",
        "serving.paged_capacity",
    ),
    "serving.disagg_chain": (
        "inference.kv_bytes_per_token", "serving.kv_transfer_time", "serving.prefill_instances",
        "serving.decode_instances",
    ),
    "serving.chain_quantise": ("serving.quant_bits", "serving.quant_memory", None, "serving.quant_speedup"),
    "serving.chain_throughput_latency": (
        "serving.tpot", "serving.tpot", "inference.decode_tps_batch", "serving.max_batch_tpot",
    ),
    "serving.chain_paged": (
        "inference.kv_bytes_per_token", "serving.paged_blocks", "serving.paged_capacity", "inference.max_batch_fit",
    ),
    "serving.chain_serve_node": (
        "inference.weights_bytes", "inference.kv_cache_size", "inference.max_batch_fit", "serving.tpot", None,
    ),
    "moe.chain_moe_vs_dense": (
        "moe.total_params", "moe.active_params", "inference.weights_bytes", "mfu.forward_flops",
        "moe.alltoall_bytes",
    ),
    "pipeline.schedule_chain": (
        "pipeline.bubble_1f1b", "pipeline.bubble_interleaved", "pipeline.micro_batches_for_target",
        "pipeline.bubble_1f1b",
    ),
    "pipeline.inflight_memory_chain": ("pipeline.inflight_1f1b", None, None),
    "pipeline.schedules_bubble_chain": (None, "pipeline.bubble_time_zb1p", "pipeline.bubble_time_dualpipe"),
    "pipeline.interleaving_tradeoff": ("pipeline.bubble_1f1b", "pipeline.bubble_interleaved", None),
    "parallelism.tp_link_chain": (
        "communication.tp_layer_bytes", "parallelism.tp_allreduce_time", "parallelism.tp_allreduce_time", None,
    ),
    "parallelism.train_chain": (None, "parallelism.zero_parallel", "pipeline.bubble_1f1b", "mfu.train_time", None),
    # part 4: waves, tiles, async checkpoints, the data pipeline, multi-LoRA, chunked prefill's budget
    "roofline.gemm_waves": (None, None),
    "roofline.tile_smem_chain": (None, None),
    "reliability.async_checkpoint_chain": (None, None, None),
    "mfu.data_pipeline_chain": (None, None),
    "serving.multi_lora_chain": (None, None),
    "serving.token_budget_chain": (None, None),
    "serving.block_format_chain": (None, None),
}

SCAFFOLDS: dict[str, str | None] = {
    "roofline.gemm_intensity_square": "roofline.gemm_intensity",
    "roofline.ridge_point": "roofline.ridge_named",
    "memory.activation_layer_given": "memory.activation_layer",
    "memory.activation_tp_given": "memory.activation_tp",
    "memory.activation_tp_sp_given": "memory.activation_tp_sp",
    "memory.static_given": "memory.static",
    "memory.zero_given": "memory.zero_per_gpu",
    "communication.allreduce_bytes_given": "communication.allreduce_time",
    "communication.busbw_given": None,
    "mfu.mfu_given": "mfu.mfu",
    "inference.decode_tps_given": "inference.decode_tps",
    "inference.kv_bytes_per_token": "inference.kv_cache_size",
    "serving.ttft": "inference.prefill_time",
    "pipeline.bubble_1f1b_given": "pipeline.bubble_1f1b",
    "pipeline.bubble_asymmetric_given": "pipeline.bubble_asymmetric",
    "parallelism.zero_parallel_given": "parallelism.zero_parallel",
    "parallelism.layout_given": "parallelism.layout",
}


def step_templates(chain: str) -> tuple[str | None, ...]:
    """The single template of each step of ``chain`` (empty for a template that is not a listed chain)."""
    return CHAIN_STEPS.get(chain, ())


def prerequisites(chain: str) -> frozenset[str]:
    """The single templates a chain's steps name: each is passed before the chain is met."""
    return frozenset(t for t in CHAIN_STEPS.get(chain, ()) if t is not None)
