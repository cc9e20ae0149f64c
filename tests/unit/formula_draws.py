"""Typical inputs of the spec's part-4 formulas, for tests/unit/test_formulas.py's properties: values of the
spec's 2026 ranges, where every named misconception differs from the right answer."""

import math

from hypothesis import strategies as st

from engine.formulas.inputs import OPTIMIZER

fl = st.floats
ints = st.integers

def _waves(d):
    """A GEMM whose tiles do not fill whole waves, the last one at most 94 % full: rounding up is the lesson."""
    sms, ctas = d(st.sampled_from([108, 132, 148])), d(st.sampled_from([1, 2]))
    tm, tn = d(st.sampled_from([64, 128, 256])), d(st.sampled_from([64, 128, 256]))
    cols, slots = d(ints(2, 16)), sms * ctas
    rows = d(st.sampled_from([r for r in range(1, 3 * slots // cols + 1) if (r * cols) % slots
                              and r * cols / (math.ceil(r * cols / slots) * slots) <= 0.94]))
    return {"m": tm * rows - d(ints(0, tm - 1)), "n": tn * cols - d(ints(0, tn - 1)), "tile_m": tm, "tile_n": tn,
            "sms": sms, "ctas_per_sm": ctas}


# tiles whose A and B slices are not the output tile's size (m n = k (m + n) at 128 x 128 x 64)
SMEM_TILES = [(m, n, k) for m in (64, 128, 256) for n in (64, 128, 256) for k in (32, 64, 128)
              if abs(m * n / (k * (m + n)) - 1) > 0.1]


def _chunked_step(d):
    w = d(fl(16e9, 140e9))
    kv, bw, peak = w * d(fl(0.1, 1)), d(st.sampled_from([3.35e12, 4.8e12, 8e12])), d(st.sampled_from([989e12, 2250e12]))
    t_mem = (w + kv) / bw
    return {"weight_bytes": w, "kv_bytes": kv, "bandwidth": bw, "phi": w / 2, "peak_flops": peak,
            "tokens_per_step": max(1, round(t_mem * d(fl(0.3, 3)) * peak / w))}


def _multi_lora(d):
    w, distinct = d(fl(8e9, 140e9)), d(ints(16, 64))
    return {"weight_bytes": w, "kv_bytes": w * d(fl(0.1, 0.3)), "distinct_adapters": distinct,
            "adapter_bytes": w * d(fl(0.01, 0.02)), "batch": distinct * d(ints(8, 16))}


def _chunked_ttft(d):
    budget = d(st.sampled_from([512, 1024, 2048, 4096, 8192]))
    return {"token_budget": budget, "decode_batch": int(budget * d(fl(0.15, 0.5))),
            "prompt_tokens": budget * d(ints(10, 60)) + d(ints(0, budget - 1)), "step_time": d(fl(0.02, 0.2))}


PART4_TYPICAL = {
    # queueing: ρ 0.5-0.95, service 50 ms-5 s, cv_service 0.5-3 (the spec's ranges); percentiles p90-p99.9
    "utilisation": lambda d: (lambda lam, c, rho: {"arrival_rate": lam, "servers": c, "service_time": rho * c / lam})(
        d(fl(1, 50)), d(ints(2, 8)), d(fl(0.3, 0.95))),  # two servers or more: one would be the misconception's answer
    # wait and response differ by the factor ρ: at 0.95 within the 5 % band, so the slip is told apart to 0.9
    "mm1_wait": lambda d: {"utilisation": d(fl(0.5, 0.9)), "service_time": d(fl(0.05, 5))},
    "mm1_response_time": lambda d: {"utilisation": d(fl(0.5, 0.9)), "service_time": d(fl(0.05, 5))},
    "md1_wait": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5))},
    "kingman_wait": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5)),
                               "cv_arrival": d(fl(0.5, 1.5)), "cv_service": d(fl(1.5, 3))},
    # not p95: 3.0 x the mean there, the "mean + 2 sd" slip's answer
    "mm1_response_percentile": lambda d: {"utilisation": d(fl(0.5, 0.95)), "service_time": d(fl(0.05, 5)),
                                          "percentile": d(st.sampled_from([0.9, 0.99, 0.999]))},
    "mm1_max_rate_for_slo": lambda d: (lambda s: {"service_time": s, "latency_target": s * d(fl(6, 15)),
                                                  "percentile": d(st.sampled_from([0.9, 0.99]))})(d(fl(0.05, 1))),
    # power and TCO: DGX H100 10.2 kW / DGX B200 14.3 kW for 8 (GPU TDP 700 / 1,000 W), PUE 1.1-1.4, racks 15-140 kW
    "it_power_per_gpu": lambda d: (lambda node: {"node_power": node, "gpus_per_node": 8, "gpu_tdp": node / 8 * 0.6,
                                                 "network_w_per_gpu": d(fl(0, 150))})(d(fl(8000, 15000))),
    "facility_power": lambda d: {"n_gpus": d(ints(256, 100_000)), "it_power_per_gpu": d(fl(1200, 2000)),
                                 "pue": d(fl(1.1, 1.4)), "gpu_tdp": d(fl(600, 1000))},
    "gpus_for_power": lambda d: {"facility_power": d(fl(1e6, 3e8)), "it_power_per_gpu": d(fl(1200, 2000)),
                                 "pue": d(fl(1.1, 1.4))},
    "gpus_per_rack": lambda d: (lambda node: {"node_power": node, "gpus_per_node": 8,
                                              "rack_power_limit": node * (d(ints(1, 2)) + d(fl(0.2, 0.9)))})(
        d(fl(8000, 15000))),
    "owned_gpu_hour_cost": lambda d: {"capex_per_gpu": d(fl(20000, 45000)), "years": d(ints(3, 6)),
                                      "utilisation": d(fl(0.5, 0.9)), "power_w": d(fl(700, 1800)), "pue": d(fl(1.1, 1.4)),
                                      "price_per_kwh": d(fl(0.05, 0.12))},
    "breakeven_utilisation": lambda d: {"capex_per_gpu": d(fl(20000, 45000)), "years": d(ints(3, 6)),
                                        "rental_price": d(fl(2, 3.5)), "power_w": d(fl(700, 1800)),
                                        "pue": d(fl(1.1, 1.4)), "price_per_kwh": d(fl(0.05, 0.12))},
    # RL weight sync and async RL: weights 16 GB-1 TB, 400-800 Gb/s NICs per GPU, staleness 1-8
    "weight_sync_time": lambda d: {"weight_bytes": d(fl(16e9, 1e12)), "gpus_per_replica": d(st.sampled_from([2, 4, 8, 16])),
                                   "replicas": d(ints(2, 32)), "n_senders": d(st.sampled_from([64, 128, 256, 512])),
                                   "link_bandwidth": d(st.sampled_from([50e9, 100e9])), "alpha": d(fl(0, 0.5))},
    # the faster phase at least a fifth of the slower: the async slip (adding it) then lands > 5 % off
    "rl_step_time": lambda d: (lambda g, t: {"t_gen": g, "t_train": t, "t_sync": d(fl(0.15, 0.5)) * max(g, t),
                                             "mode": d(st.sampled_from([0, 1]))})(*(lambda a: (a, a * d(fl(0.2, 5))))(
        d(fl(20, 300)))),
    # long-reasoning RL is mostly generation: 1-6 x the training GPU-seconds
    "rl_gen_gpu_share": lambda d: (lambda t: {"gen_gpu_seconds": t * d(fl(1, 6)), "train_gpu_seconds": t})(
        d(fl(1000, 1e5))),
    "async_max_inflight": lambda d: {"batch": d(ints(64, 4096)), "max_staleness": d(ints(1, 8))},
    # MoE at scale: d_model 2880-7168, E 8-384, k 1-8 (k >= 2 where one copy is the slip), fp8 dispatch, bf16 combine
    "experts_per_gpu": lambda d: {"n_experts": d(st.sampled_from([64, 128, 256, 384])), "redundant_experts":
                                  d(st.sampled_from([8, 16, 32])), "ep": d(st.sampled_from([8, 16, 32, 64]))},
    "moe_a2a_bytes_per_token": lambda d: {"top_k": d(ints(2, 8)), "d_model": d(st.sampled_from([2880, 4096, 5120, 7168])),
                                          "dispatch_bytes": 1, "combine_bytes": 2,
                                          "count_local": d(st.sampled_from([0, 1])), "ep": d(st.sampled_from([8, 32, 320]))},
    "moe_node_limited_ib_bytes_per_token": lambda d: {"nodes_per_token": d(ints(1, 4)), "top_k": 8,
                                                      "d_model": d(st.sampled_from([4096, 7168])),
                                                      "dispatch_bytes": 1, "combine_bytes": 2},
    # collisions matter once k·T is a good share of E (a decode batch of 8-64 sequences on 64-384 experts)
    "moe_distinct_experts": lambda d: (lambda e, k: {"n_experts": e, "top_k": k, "tokens": max(2, round(
        e / k * d(fl(0.3, 2))))})(d(st.sampled_from([64, 128, 256, 384])), d(ints(2, 8))),
    "moe_decode_weight_bytes": lambda d: (lambda e, k: {
        "phi_dense": d(fl(5e9, 20e9)), "phi_expert": d(fl(0.5e9, 3e9)), "n_experts": e, "top_k": k,
        "tokens": max(2, round(e / k * d(fl(0.3, 1.5)))), "bytes_per_param": d(st.sampled_from([0.5, 1, 2]))})(
        d(st.sampled_from([64, 128, 256])), d(ints(2, 8))),
    "moe_critical_batch": lambda d: {"peak_flops": d(fl(4e14, 2.5e15)), "bandwidth": d(fl(2e12, 8e12)),
                                     "bytes_per_elem": d(st.sampled_from([1, 2])),
                                     "n_experts": d(st.sampled_from([64, 128, 256])), "top_k": d(ints(1, 8))},
    "ep_decode_comm_time": lambda d: {"moe_layers": d(ints(24, 60)), "tokens_per_gpu": d(ints(16, 256)), "top_k": 8,
                                      "d_model": d(st.sampled_from([4096, 7168])), "dispatch_bytes": 1,
                                      "combine_bytes": 2, "alpha": d(fl(10e-6, 40e-6)), "link_bandwidth": 50e9},
    # TP decode: 80-126 layers, TP 2-8, alpha 2-10 us, NVLink 450-900 GB/s one way
    "tp_decode_comm_time": lambda d: {"layers": d(ints(80, 126)), "batch": d(ints(1, 64)),
                                      "d_model": d(st.sampled_from([8192, 12288, 16384])), "bytes_per_elem": 2,
                                      "n_tp": d(st.sampled_from([4, 8])), "alpha": d(fl(2e-6, 10e-6)),
                                      "beta": d(st.sampled_from([450e9, 900e9])),
                                      "latency_steps": d(st.sampled_from([0, 1]))},
    "nvls_allreduce_time": lambda d: {"m": d(fl(16e6, 1e9)), "alpha": d(fl(2e-6, 10e-6)), "beta": 450e9,
                                      "n": d(st.sampled_from([4, 8]))},
    "tp_max_degree": lambda d: {"ffn": d(st.sampled_from([14336, 28672, 53248])), "link_bandwidth": d(
        st.sampled_from([450e9, 900e9])), "peak_flops": d(fl(9e14, 2.5e15))},
    # FSDP / HSDP: 50 GB/s across nodes, 450 GB/s within NVLink; shard groups 8-72, replicas 2-512
    "fsdp_min_tokens_per_gpu": lambda d: {"peak_flops": d(fl(9e14, 2.5e15)), "mfu": d(fl(0.3, 0.6)),
                                          "link_bandwidth": d(st.sampled_from([50e9, 450e9])), "n": d(ints(8, 512))},
    "hsdp_comm_bytes": lambda d: {"phi": d(fl(7e9, 405e9)), "bytes_per_param": 2,
                                  "shard_size": d(st.sampled_from([8, 64, 72])), "replicas": d(ints(2, 512))},
    # optimizer state, kernels, checkpoint stalls, data pipeline, multi-LoRA and chunked prefill
    "optimizer_state_bytes": lambda d: {"phi": d(fl(1e9, 1e12)),
                                        "optimizer": OPTIMIZER.value_of(d(st.sampled_from([c.key for c in OPTIMIZER.choices])))},
    "adafactor_state_elems": lambda d: {"rows": d(ints(1024, 32768)), "cols": d(ints(1024, 32768))},
    "tile_intensity": lambda d: {"tile_m": d(st.sampled_from([64, 128, 256])), "tile_n": d(st.sampled_from([64, 128, 256])),
                                 "bytes_per_elem": d(st.sampled_from([0.5, 2, 4])), "m": d(ints(2048, 16384)),
                                 "n": d(ints(2048, 16384)), "k": d(ints(2048, 16384))},
    "gemm_waves": _waves,
    "wave_efficiency": _waves,
    "smem_tile_bytes": lambda d: (lambda t: {"tile_m": t[0], "tile_n": t[1], "tile_k": t[2], "stages": d(ints(2, 5)),
                                             "bytes_per_elem": d(st.sampled_from([1, 2]))})(d(st.sampled_from(SMEM_TILES))),
    "async_checkpoint_stall": lambda d: (lambda shard, n: {
        "bytes_per_gpu": shard, "host_link_bandwidth": d(st.sampled_from([50e9, 64e9, 450e9])), "n_gpus": n,
        "checkpoint_bytes": shard * n, "write_bandwidth": d(fl(1e10, 1e12))})(d(fl(1e9, 5e10)), d(ints(64, 16384))),
    "expected_interruptions": lambda d: {"n_gpus": d(ints(1000, 100_000)), "hours": d(fl(24, 2000)),
                                         "rate_per_gpu_hour": d(st.sampled_from([2e-5, 2.8e-7]))},
    "training_tokens_per_s": lambda d: {"n_gpus": d(ints(64, 16384)), "peak_flops": d(st.sampled_from([989e12, 2250e12])),
                                        "mfu": d(fl(0.3, 0.55)), "phi": d(fl(7e9, 4.05e11))},
    "data_read_bandwidth": lambda d: {"tokens_per_s": d(fl(1e5, 1e8)), "bytes_per_token": d(st.sampled_from([2, 4]))},
    "vision_tokens_per_image": lambda d: {"height": d(ints(224, 2048)), "width": d(ints(224, 2048)),
                                          "patch": d(st.sampled_from([14, 16])), "merge": d(st.sampled_from([1, 2]))},
    "lora_adapter_bytes": lambda d: {"layers": d(ints(16, 80)), "d_in": d(st.sampled_from([4096, 8192])),
                                     "d_out": d(st.sampled_from([1024, 4096, 14336])), "rank": d(st.sampled_from([8, 16, 64])),
                                     "n_matrices": d(st.sampled_from([4, 7])), "bytes_per_elem": 2},
    "multi_lora_step_bytes": _multi_lora,
    "chunked_step_time": _chunked_step,
    "chunked_prefill_ttft": _chunked_ttft,
    "token_budget": lambda d: {"tpot_target": d(fl(0.02, 0.1)), "phi": d(fl(7e9, 7e10)),
                               "peak_flops": d(st.sampled_from([989e12, 2250e12])), "mfu": d(fl(0.3, 0.6))},
}
