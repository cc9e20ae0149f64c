"""engine.formulas: the catalogue evaluates, explains itself, matches the spec, and its misconceptions are real."""

import math
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import expr as ex
from engine import formulas
from engine.formulas import CATALOGUE, FormulaError, bound_solution, classify_bound, get, result_text
from engine.grading import DEFAULT_TOLERANCE, distance
from engine.units import KINDS, fmt_whole
from tests.problems import examples
from tests.unit.formula_draws import PART4_TYPICAL

CJK = re.compile(r"[\u4e00-\u9fff]")

SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "formulas.md"

# --------------------------------------------------------------------------- typical inputs
# Realistic whiteboard values, per formula where a name means different things (m is a
# message in bytes for collectives, a micro-batch count for pipelines, GEMM rows for gemm).

GB = 1e9
fl = st.floats
ints = st.integers


@st.composite
def model(draw):
    """A consistent dense decoder: layers, heads, head dim, hidden size and Φ ≈ 12·L·d²."""
    layers, a, d_head = draw(ints(12, 96)), draw(st.sampled_from([16, 32, 40, 64])), draw(st.sampled_from([64, 128]))
    d = a * d_head
    return {"l": layers, "a": a, "h_head": d_head, "d": d, "phi": 12.0 * layers * d * d}


@st.composite
def _moe(draw, third):
    e = draw(fl(0.5e9, 20e9))  # one expert over all MoE layers; shared part 0.5-4x that (Mixtral: 0.28x, n = 8)
    return {"phi_dense": e * draw(fl(0.5, 4)), "phi_expert": e} | third(draw)


def _zero_parallel(draw):
    return {"phi": draw(fl(1e9, 1e12)), "tp": draw(st.sampled_from([2, 4, 8])), "pp": draw(st.sampled_from([1, 2, 4, 8])),
            "n_dp": draw(ints(2, 512))}


def _act_tp(draw):  # s / d_head and t large enough that the replicated 10sbh matters (Korthikanti Table 2)
    a, d_head = draw(st.sampled_from([16, 32, 64])), draw(st.sampled_from([64, 128]))
    return {"s": draw(st.sampled_from([512, 1024, 2048])), "b": draw(ints(1, 16)), "h": a * d_head, "a": a,
            "t": draw(st.sampled_from([4, 8]))}


# Catalogue part 2 (the spec's "beyond the seeds" table and the stages added beside it).
PART2_TYPICAL = {
    "moe_total_params": lambda d: d(_moe(lambda d: {"n_experts": 8})),
    "moe_active_params": lambda d: d(_moe(lambda d: {"top_k": d(st.sampled_from([2, 4, 8]))})),
    "moe_alltoall_bytes": lambda d: {"tokens": d(ints(1024, 65536)), "top_k": d(st.sampled_from([2, 8])),
                                     "d_model": d(st.sampled_from([4096, 6144, 7168])),
                                     "bytes_per_elem": d(st.sampled_from([1, 2])), "n": d(ints(2, 16))},
    "activation_bytes_layer_tp": _act_tp,
    "activation_bytes_layer_tp_sp": _act_tp,
    "zero1_parallel_bytes": _zero_parallel,
    "zero2_parallel_bytes": _zero_parallel,
    "zero3_parallel_bytes": _zero_parallel,
    "allreduce_busbw": lambda d: {"algbw": d(fl(1 * GB, 500 * GB)), "n": d(ints(3, 16))},  # n = 2: busbw = algbw
    "decode_step_time": lambda d: (lambda w: {"bandwidth": d(fl(900 * GB, 8000 * GB)), "weight_bytes": w,
                                              "kv_bytes_per_seq": w * d(fl(0.05, 0.5)), "batch": d(ints(4, 64))})(
        d(fl(1 * GB, 800 * GB))),
    "ttft": lambda d: {"phi": d(fl(1e9, 1e12)), "prompt_tokens": d(ints(128, 32768)),
                       "peak_flops": d(st.sampled_from([312e12, 989e12])), "mfu": d(fl(0.3, 0.7))},
    "decode_attention_intensity": lambda d: (lambda kv: {"n_kv_heads": kv, "n_heads": kv * d(st.sampled_from([2, 4, 8])),
                                                         "bytes_per_elem": d(st.sampled_from([0.5, 2, 4]))})(
        d(st.sampled_from([1, 4, 8]))),
    "mla_kv_bytes_per_token": lambda d: {"layers": d(ints(27, 61)), "kv_lora_rank": 512, "rope_dim": 64,
                                         "bytes_per_elem": d(st.sampled_from([1, 2]))},
    # 4-bit g128 fp16 (4.125 bits) is within 5 % of 4: templates grade it with a tighter tolerance
    "quant_bits_per_weight": lambda d: {"bits": d(st.sampled_from([2, 3, 4])), "group_size": d(st.sampled_from([32, 64])),
                                        "scale_bits": 16, "zero_bits": d(st.sampled_from([0, 4, 16]))},
    "paged_kv_blocks": lambda d: {"seq": d(ints(1, 32768)), "block_size": d(st.sampled_from([16, 32]))},
    "spec_decode_tokens_per_step": lambda d: {"acceptance": d(fl(0.5, 0.85)), "draft_tokens": d(ints(3, 8))},
    "spec_decode_speedup": lambda d: {"acceptance": d(fl(0.5, 0.85)), "draft_tokens": d(ints(3, 8)),
                                      "cost_ratio": d(fl(0.02, 0.2))},
    "chinchilla_tokens": lambda d: {"phi": d(fl(1e8, 1e12))},
    "chinchilla_params": lambda d: {"compute": d(fl(1e20, 1e26))},
    # formulas the question bank added beside part 2
    "param_count_approx": lambda d: {"layers": d(ints(12, 126)), "d_model": d(st.sampled_from([2048, 4096, 8192, 16384]))},
    "tp_allreduce_time_layer": lambda d: {"s": d(st.sampled_from([2048, 4096])), "b": d(ints(1, 8)),
                                          "h": d(st.sampled_from([4096, 8192])), "bytes_per_elem": 2,
                                          "n_tp": d(st.sampled_from([2, 4, 8])), "link_bw": d(fl(25 * GB, 900 * GB))},
    "nccl_algbw": lambda d: {"size": d(fl(1e6, 1e10)), "time": d(fl(1e-5, 1))},
    "tree_allreduce_time": lambda d: {"m": d(fl(1e3, 6.4e4)), "depth": d(ints(3, 10)), "alpha": d(fl(1e-6, 1e-5)),
                                      "beta": d(fl(25 * GB, 400 * GB))},
    # buckets of a small gradient on a large ring: the k latency terms are at least a third of the time
    "bucketed_allreduce_time": lambda d: {"m": d(fl(1e7, 5e8)), "n": d(ints(64, 1024)), "alpha": d(fl(1e-5, 3e-5)),
                                          "beta": d(fl(100 * GB, 400 * GB)), "buckets": d(ints(4, 16))},
    "ddp_exposed_comm_time": lambda d: (lambda bwd: {"backward_time": bwd, "comm_time": bwd * d(fl(0.2, 3)),
                                                     "buckets": d(ints(2, 8))})(d(fl(0.05, 2))),
    "compute_budget": lambda d: {"n_gpus": d(ints(8, 16384)), "peak_flops": d(st.sampled_from([312e12, 989e12])),
                                 "mfu": d(fl(0.2, 0.7)), "time": d(fl(86400, 1e7))},
    "inflight_microbatches_1f1b": lambda d: (lambda p: {"p": p, "stage": d(ints(1, p - 1)), "m": d(ints(2 * p, 8 * p))})(
        d(ints(4, 32))),
    "stage_activation_bytes": lambda d: {"inflight": d(ints(2, 32)), "stage_layers": d(ints(1, 40)),
                                         "layer_bytes": d(fl(1e8, 1e10))},
    "interleaved_activation_factor": lambda d: {"p": d(ints(2, 32)), "v": d(st.sampled_from([2, 3, 4]))},
    "step_time_with_bubble": lambda d: {"compute_time": d(fl(0.1, 100)), "bubble": d(fl(0.25, 0.6))},
}



def _near_young(draw, restart=None):
    """A checkpoint interval within 2x of the Young-Daly optimum: both waste terms matter."""
    ckpt, mtbf = draw(fl(10, 120)), draw(fl(10000, 30000))
    env = {"checkpoint_time": ckpt, "mtbf": mtbf, "interval": (2 * ckpt * mtbf) ** 0.5 * draw(fl(0.5, 2))}
    return env | ({"restart_time": draw(fl(2400, 3600))} if restart else {})


def _pipe_times(draw):
    t_f = draw(fl(1e-3, 0.05))
    t_b = t_f * draw(fl(1.5, 2.5))
    return t_f, t_b, t_b * draw(fl(0.3, 0.45))


def _dualpipe(draw):
    t_f, t_b, t_w = _pipe_times(draw)
    return {"p": draw(st.sampled_from([4, 8, 16, 32])), "t_fb": max(t_f, t_b) * draw(fl(1.0, 1.3)), "t_b": t_b,
            "t_w": t_w}


def _sliding(draw):
    window = draw(st.sampled_from([4096, 8192]))
    return {"batch": draw(ints(1, 8)), "window": window, "seq": int(window * draw(fl(2, 8))),
            "layers": draw(ints(16, 80)), "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": draw(st.sampled_from([1, 2]))}


def _attention_share(draw):
    m = draw(model())
    return {"phi": m["phi"], "layers": m["l"], "d_model": m["d"], "seq": draw(fl(m["d"] / 2, 8 * m["d"]))}


def _ulysses(draw):
    kv = draw(st.sampled_from([4, 8]))
    return {"batch": draw(ints(1, 4)), "seq": draw(st.sampled_from([32768, 131072])), "cp": draw(st.sampled_from([4, 8])),
            "n_kv_heads": kv, "n_heads": kv * draw(st.sampled_from([2, 4, 8])), "d_head": draw(st.sampled_from([64, 128])),
            "bytes_per_elem": 2}


def _grad_accum(draw):
    micro, dp = draw(ints(1, 8)), draw(ints(2, 256))
    return {"micro_batch": micro, "n_dp": dp, "global_batch": micro * dp * draw(ints(1, 64))}


# Catalogue part 3 (the 2026 interview formulas): ranges where every misconception is a real miss.
PART3_TYPICAL = {
    "gpu_hours": lambda d: {"flops": d(fl(1e21, 1e25)), "peak_flops": d(st.sampled_from([312e12, 989e12])),
                            "mfu": d(fl(0.3, 0.6))},
    "train_cost": lambda d: {"gpu_hours": d(fl(1e4, 1e7)), "price_per_gpu_hour": d(fl(1, 5)), "n_gpus": d(ints(8, 16384))},
    "cost_per_mtok": lambda d: {"price_per_gpu_hour": d(fl(1, 5)), "n_gpus": d(ints(2, 64)), "tokens_per_s": d(fl(1e3, 1e5))},
    "concurrency": lambda d: {"arrival_rate": d(fl(1, 500)), "latency": d(fl(2, 30))},
    "request_latency": lambda d: {"ttft": d(fl(0.5, 2)), "output_tokens": d(ints(20, 100)), "tpot": d(fl(0.01, 0.03))},
    "replicas_needed": lambda d: {"arrival_rate": d(fl(30, 100)), "tokens_per_request": d(ints(1000, 2000)),
                                  "tokens_per_s_per_replica": d(fl(1000, 5000)), "utilisation": d(fl(0.5, 0.85))},
    "mbu": lambda d: {"bytes_per_step": d(fl(1e10, 2e11)), "steps_per_s": d(fl(5, 50)), "bandwidth": d(fl(2e12, 8e12)),
                      "batch": d(ints(4, 64))},
    "lora_params": lambda d: {"layers": d(ints(16, 96)), "d_in": d(st.sampled_from([2048, 4096, 8192])),
                              "d_out": d(st.sampled_from([1024, 4096, 14336])), "rank": d(st.sampled_from([8, 16, 64])),
                              "n_matrices": d(st.sampled_from([2, 4, 7]))},
    "lora_train_bytes": lambda d: (lambda phi: {"phi": phi, "phi_trainable": phi * d(fl(0.001, 0.01)),
                                                "bytes_per_frozen_param": d(st.sampled_from([0.5, 1, 2]))})(d(fl(1e9, 7e10))),
    "qlora_base_bytes": lambda d: {"phi": d(fl(1e9, 1e11)), "bits_per_weight": d(st.sampled_from([4.127, 4.5, 8.25]))},
    "ppo_static_bytes": lambda d: (lambda p: {"phi_policy": p, "phi_critic": p * d(fl(0.5, 1)), "phi_reference": p,
                                              "phi_reward": p * d(fl(0.1, 1))})(d(fl(1e9, 7e10))),
    "grpo_static_bytes": lambda d: (lambda p: {"phi_policy": p, "phi_reference": p,
                                               "phi_reward": d(st.one_of(st.just(0.0), fl(1e9, 7e10)))})(d(fl(1e9, 7e10))),
    "rollout_tokens": lambda d: {"prompts": d(ints(64, 1024)), "group_size": d(st.sampled_from([4, 8, 16, 64])),
                                 "response_tokens": d(ints(256, 8192))},
    "checkpoint_bytes": lambda d: {"phi": d(fl(1e9, 1e12))},
    "checkpoint_write_time": lambda d: {"checkpoint_bytes": d(fl(1e10, 1e13)), "write_bandwidth": d(fl(1e10, 1e12))},
    "cluster_mtbf": lambda d: {"node_mtbf": d(fl(1e6, 1e8)), "n_nodes": d(ints(2, 4096))},
    "young_daly_interval": lambda d: {"checkpoint_time": d(fl(10, 600)), "mtbf": d(fl(3600, 86400))},
    "checkpoint_waste": _near_young,
    "training_goodput": lambda d: _near_young(d, restart=True),
    "kv_transfer_time": lambda d: {"kv_bytes_per_token": d(fl(1e4, 1e6)), "prompt_tokens": d(ints(128, 32768)),
                                   "link_bandwidth": d(fl(1e10, 1e11))},
    "prefill_instances": lambda d: {"arrival_rate": d(fl(20, 100)), "prefill_time": d(fl(0.3, 1)),
                                    "utilisation": d(fl(0.5, 0.85))},
    "decode_instances": lambda d: {"arrival_rate": d(fl(10, 100)), "output_tokens": d(ints(1000, 2000)),
                                   "tokens_per_s_per_instance": d(fl(1000, 5000))},
    "ring_attention_kv_bytes": lambda d: {"batch": d(ints(1, 4)), "seq": d(st.sampled_from([32768, 131072, 1048576])),
                                          "cp": d(st.sampled_from([4, 8, 16])), "n_kv_heads": d(st.sampled_from([1, 4, 8])),
                                          "d_head": d(st.sampled_from([64, 128])), "bytes_per_elem": d(st.sampled_from([1, 2]))},
    "ulysses_alltoall_bytes": _ulysses,
    "bubble_time_1f1b": lambda d: (lambda t: {"p": d(ints(2, 16)), "t_f": t[0], "t_b": t[1]})(_pipe_times(d)),
    "bubble_time_zb1p": lambda d: (lambda t: {"p": d(ints(2, 16)), "t_f": t[0], "t_b": t[1], "t_w": t[2]})(_pipe_times(d)),
    "bubble_time_dualpipe": _dualpipe,
    "fat_tree_hosts": lambda d: {"radix": d(st.sampled_from([16, 32, 48, 64, 128])), "tiers": d(st.sampled_from([2, 3])),
                       "planes": d(st.sampled_from([2, 4, 8]))},  # one_plane forgets them
    "bisection_bandwidth": lambda d: {"n_hosts": d(ints(64, 8192)), "link_bandwidth": d(fl(1e10, 1e11)),
                                      "oversubscription": d(st.sampled_from([2, 3, 4]))},
    "hierarchical_allreduce_time": lambda d: {"m": d(fl(1e8, 1e10)), "gpus_per_node": d(st.sampled_from([4, 8])),
                                              "n_nodes": d(ints(2, 64)), "intra_bandwidth": d(fl(2e11, 9e11)),
                                              "inter_bandwidth": d(fl(2.5e10, 1e11))},
    "dp_min_batch_per_device": lambda d: {"peak_flops": d(st.sampled_from([312e12, 989e12])),
                                          "link_bandwidth": d(fl(1e10, 1e11))},
    "prefix_cache_saved_flops": lambda d: {"phi": d(fl(1e9, 1e11)), "prefix_tokens": d(ints(100, 4000)),
                                           "requests": d(ints(2, 15))},
    "sliding_window_kv_bytes": _sliding,
    "kv_offload_time": lambda d: {"kv_bytes": d(fl(1e8, 1e11)), "link_bandwidth": d(fl(1e10, 5e11))},
    "logits_bytes": lambda d: {"batch": d(ints(1, 16)), "seq": d(st.sampled_from([2048, 8192])),
                               "vocab": d(ints(32000, 256000)), "bytes_per_elem": 4,  # fp32 for the loss
                               "d_model": d(st.sampled_from([4096, 8192]))},
    "attention_flops_share": _attention_share,
    "attention_share_seq": lambda d: (lambda m: {"phi": m["phi"], "layers": m["l"], "d_model": m["d"],
                                                 "share": d(fl(0.1, 0.8))})(d(model())),
    "chinchilla_loss": lambda d: {"phi": d(fl(1e8, 1e12)), "tokens": d(fl(1e9, 2e13))},
    "energy_per_token": lambda d: {"power_w": d(st.sampled_from([400, 700, 1000])), "n_gpus": d(ints(2, 64)),
                                   "tokens_per_s": d(fl(1e3, 1e5))},
    "training_energy_mwh": lambda d: {"gpu_hours": d(fl(1e3, 1e7)), "power_w": d(st.sampled_from([400, 700, 1000])),
                                      "pue": d(fl(1.1, 1.5))},
    "global_batch_tokens": lambda d: {"micro_batch": d(ints(1, 8)), "grad_accum": d(ints(2, 64)), "n_dp": d(ints(2, 512)),
                                      "seq": d(st.sampled_from([2048, 4096, 8192]))},
    "grad_accum_steps": _grad_accum,
    "critical_batch_exact": lambda d: {"peak_flops": d(fl(3e14, 2e15)), "bandwidth": d(fl(2e12, 8e12)),
                                       "bytes_per_elem": d(st.sampled_from([1, 2])),
                                       "d": d(st.sampled_from([16384, 32768, 65536])),
                                       "f": d(st.sampled_from([16384, 32768, 65536]))},
}


@st.composite
def typical(draw, f):
    n = f.name
    if n in PART2_TYPICAL:
        return PART2_TYPICAL[n](draw)
    if n in PART3_TYPICAL:
        return PART3_TYPICAL[n](draw)
    if n in PART4_TYPICAL:
        return PART4_TYPICAL[n](draw)
    if n == "train_static_bytes":
        return {"phi": draw(st.sampled_from([1e9, 7e9, 13e9, 70e9, 175e9, 405e9]))}
    if n == "forward_flops_per_token":  # with an MoE model's total parameters (an extra)
        phi = draw(st.sampled_from([1e9, 7e9, 13e9, 70e9, 175e9, 405e9]))
        return {"phi": phi, "phi_total": phi * draw(fl(3, 20))}
    if n.startswith("zero"):
        return {"phi": draw(fl(1e9, 1e12)), "n_dp": draw(ints(2, 4096))}
    if n == "weights_bytes":  # with an MoE model's active parameters (an extra)
        phi = draw(fl(1e9, 1e12))
        return {"phi": phi, "bytes_per_param": draw(st.sampled_from([0.5, 1, 2, 8, 18])), "phi_active": phi / draw(fl(3, 20))}
    if n == "min_gpus":  # not a whole number of GPUs, else rounding down is no mistake
        gpu = draw(st.sampled_from([24, 40, 80, 94, 141, 192])) * GB
        return {"total_bytes": gpu * (draw(ints(1, 60)) + draw(fl(0.05, 0.95))), "gpu_bytes": gpu}
    if n == "whole_model_activation_bytes":  # with the per-layer inputs a problem gives as extras
        a, d_head = draw(st.sampled_from([16, 32, 64])), draw(st.sampled_from([64, 128]))
        env = {"s": draw(st.sampled_from([512, 1024, 2048, 4096])), "b": draw(ints(1, 16)), "h": a * d_head, "a": a}
        return env | {"layers": draw(ints(2, 96)), "layer_bytes": get("activation_bytes_layer").evaluate(**env)}
    if n == "activation_bytes_layer_swiglu":  # a GQA Llama-style layer; s small enough that K/V widths matter
        a = draw(st.sampled_from([32, 64, 128]))
        h = 128 * a
        return {"s": draw(st.sampled_from([256, 512, 1024])), "b": draw(ints(1, 16)), "h": h, "a": a,
                "n_kv_heads": a // draw(st.sampled_from([8, 16])), "ffn": 256 * round(h * 8 / 3 / 256)}
    if n.startswith("activation"):
        a, d_head = draw(st.sampled_from([16, 32, 64])), draw(st.sampled_from([64, 128]))
        env = {"s": draw(st.sampled_from([512, 1024, 2048, 4096])), "b": draw(ints(1, 16)), "h": a * d_head}
        return env | ({"a": a} if "a" in f.input_names else {})
    if n.endswith("_bytes") and "m" in f.input_names:
        return {"m": draw(fl(1e6, 1e10)), "n": draw(ints(2, 16))} if "n" in f.input_names else {"m": draw(fl(1e6, 1e10))}
    if n.endswith("_time") and "alpha" in f.input_names:  # latency matters: small messages
        env = {"m": draw(fl(1e3, 6.4e4)), "alpha": draw(fl(1e-6, 1e-5)), "beta": draw(fl(25 * GB, 400 * GB))}
        return env | ({"n": draw(ints(2, 16))} if "n" in f.input_names else {})
    if n == "train_flops_per_token":  # attention matters once s is comparable with d (C§3.1)
        m = draw(model())
        return {"phi": m["phi"], "l": m["l"], "a": m["a"], "h_head": m["h_head"], "s": draw(fl(m["d"] / 2, 4 * m["d"]))}
    if n in ("mfu", "hfu"):
        return {"tokens_per_s": draw(fl(1e3, 1e7)), "phi": draw(fl(1e9, 1e12)), "n_gpus": draw(ints(2, 16384)),
                "peak_flops": draw(st.sampled_from([125e12, 312e12, 989e12, 2250e12]))}
    if n == "train_flops":
        return {"phi": draw(fl(1e9, 1e12)), "tokens": draw(fl(1e9, 2e13))}
    if n == "train_time":
        return {"phi": draw(fl(1e9, 1e12)), "tokens": draw(fl(1e9, 2e13)), "n_gpus": draw(ints(8, 16384)),
                "peak_flops": draw(st.sampled_from([312e12, 989e12])), "mfu": draw(fl(0.2, 0.7))}
    if n.startswith("kv_"):
        kv = draw(st.sampled_from([1, 4, 8, 16]))
        env = {"layers": draw(ints(16, 96)), "n_kv_heads": kv, "d_head": draw(st.sampled_from([64, 128])),
               "bytes_per_elem": draw(st.sampled_from([0.5, 2, 4])),
               "n_heads": kv * draw(st.sampled_from([2, 4, 8]))}  # GQA: an extra the problem gives
        return env | ({"batch": draw(ints(1, 256)), "seq": draw(ints(128, 131072))} if "batch" in f.input_names else {})
    if n == "decode_tokens_per_s":  # the KV read is a real share of the traffic
        w = draw(fl(1 * GB, 800 * GB))
        return {"bandwidth": draw(fl(900 * GB, 8000 * GB)), "weight_bytes": w, "kv_bytes": w * draw(fl(0.1, 2))}
    if n == "decode_tokens_per_s_batch":
        w = draw(fl(1 * GB, 800 * GB))
        return {"bandwidth": draw(fl(900 * GB, 8000 * GB)), "weight_bytes": w,
                "kv_bytes_per_seq": w * draw(fl(0.02, 0.5)), "batch": draw(ints(4, 64))}
    if n == "critical_batch":  # at 2 bytes per element bytes/2 = 1: see the test below
        return {"peak_flops": draw(fl(1e14, 3e15)), "bandwidth": draw(fl(900 * GB, 8000 * GB)),
                "bytes_per_elem": draw(st.sampled_from([0.5, 1, 4]))}
    if n == "prefill_time":
        return {"phi": draw(fl(1e9, 1e12)), "tokens": draw(fl(1e2, 1e6)), "peak_flops": draw(fl(1e14, 3e15))}
    if n == "arithmetic_intensity":  # not ~1 FLOP/B, where inverting changes nothing
        return {"flops": draw(fl(1e6, 1e15)), "bytes": draw(fl(1e6, 1e15))} | (
            lambda i, b: {"flops": i * b, "bytes": b})(draw(st.one_of(fl(0.01, 0.5), fl(2, 1e4))), draw(fl(1e6, 1e12)))
    if n == "ridge_point":  # with the 16-bit peak of a chip whose kernel runs in fp8 (an extra)
        peak = draw(fl(1e14, 3e15))
        return {"peak_flops": peak, "bandwidth": draw(fl(900 * GB, 8000 * GB)), "peak_flops_16": peak / 2}
    if n == "attainable_flops":  # a kernel clearly on one side of the ridge
        peak, bw = draw(fl(1e14, 3e15)), draw(fl(900 * GB, 8000 * GB))
        return {"intensity": peak / bw * draw(st.one_of(fl(0.01, 0.8), fl(1.25, 20))), "peak_flops": peak, "bandwidth": bw}
    if n == "gemm_intensity":  # K not far larger than M and N, else writing C is negligible
        m, nn = draw(ints(64, 8192)), draw(ints(64, 8192))
        return {"m": m, "n": nn, "k": draw(ints(min(m, nn) // 2, 2 * min(m, nn))),
                "bytes_per_elem": draw(st.sampled_from([0.5, 2, 4]))}
    if n == "param_count":  # 1B-8B GQA models with large vocabularies (Llama-3 family): embeddings matter
        d_head = draw(st.sampled_from([64, 128]))
        d = 32 * d_head
        return {"layers": draw(ints(16, 32)), "d_model": d, "n_heads": 32, "n_kv_heads": draw(st.sampled_from([4, 8])),
                "d_head": d_head, "ffn": int(d * draw(fl(2.5, 4))), "vocab": draw(ints(100_000, 160_000))}
    if n == "bubble_1f1b":
        p = draw(ints(2, 16))
        return {"p": p, "m": draw(ints(1, 8 * p))}
    if n == "bubble_interleaved":
        p = draw(ints(2, 16))
        return {"p": p, "m": draw(ints(p, 2 * p)), "v": draw(st.sampled_from([2, 4]))}
    if n == "bubble_asymmetric":  # one heavy stage (a VLA encoder, C§6.3), few micro-batches: far from the limit
        p = draw(ints(3, 6))
        t = [draw(fl(5e-3, 8e-3)) for _ in range(p - 1)] + [draw(fl(20e-3, 30e-3))]
        return {"stage_times": tuple(draw(st.permutations(t))), "m": draw(ints((p + 1) // 2, p))}
    if n == "max_batch_fit":
        gpu = draw(st.sampled_from([24, 80, 141, 192])) * GB * draw(ints(1, 8))
        w = gpu * draw(fl(0.2, 0.8))
        return {"gpu_bytes": gpu, "weight_bytes": w, "kv_bytes_per_seq": (gpu - w) / (draw(ints(8, 200)) + draw(fl(0.05, 0.95)))}
    if n == "micro_batches_for_bubble":
        return {"p": draw(ints(2, 16)), "target": draw(fl(0.02, 0.3))}
    # serving, MoE, quantisation and attention IO (bank part 2)
    if n in ("attention_hbm_bytes", "attention_intensity"):  # N comparable with d or longer: the N² term matters
        return {"n": draw(st.sampled_from([256, 512, 1024, 4096, 32768])), "d": draw(st.sampled_from([64, 128])),
                "bytes_per_elem": draw(st.sampled_from([2, 4]))}
    if n == "flash_attention_hbm_bytes":  # the Q block B = M / (2 d bytes) is 128-512 rows (B ≥ d), N a multiple of it
        d, bpe = draw(st.sampled_from([64, 128])), 2
        return {"n": draw(st.sampled_from([4096, 16384, 65536])), "d": d, "bytes_per_elem": bpe,
                "sram_bytes": 2 * d * bpe * draw(st.sampled_from([128, 256, 512]))}
    if n == "fusion_bytes_saved":
        return {"n_elem": draw(fl(1e6, 1e9)), "kernels": draw(ints(2, 8)), "bytes_per_elem": draw(st.sampled_from([2, 4]))}
    if n == "hbm_time":
        return {"bytes": draw(fl(1e6, 1e11)), "bandwidth": draw(fl(900 * GB, 8000 * GB))}
    if n == "max_batch_tpot":  # a target the weights alone meet, with 1-500 sequences' worth of KV to spare
        bw, w = draw(fl(900 * GB, 8000 * GB)), draw(fl(1 * GB, 400 * GB))
        kv = w * draw(fl(0.001, 0.2))  # the weights are worth 5 or more sequences' KV
        return {"bandwidth": bw, "weight_bytes": w, "kv_bytes_per_seq": kv,
                "tpot_target": (w + kv * (draw(ints(1, 500)) + draw(fl(0.05, 0.95)))) / bw}
    if n == "quant_weights_bytes":  # the bare bit width is an extra; a small group's overhead is beyond 5 %
        bits = draw(st.sampled_from([3, 4]))
        return {"phi": draw(fl(1e9, 1e12)), "bits": bits,
                "bits_per_weight": bits + draw(st.sampled_from([16, 32])) / draw(st.sampled_from([16, 32]))}
    if n == "quant_decode_speedup":  # the KV read is a real share of the step; the bare bit width is an extra
        phi, after = draw(fl(1e9, 1e12)), draw(st.sampled_from([4.125, 4.25, 8.125]))
        return {"weight_bytes": 2 * phi, "bits_before": 16, "bits_after": after, "kv_bytes": phi * draw(fl(0.2, 2)),
                "bits": int(after)}
    if n == "paged_kv_waste_tokens":  # a partly filled last block, not half full (filled part = empty part)
        b = draw(st.sampled_from([8, 16, 32]))
        return {"block_size": b, "seq": b * draw(ints(1, 500)) + draw(st.sampled_from([r for r in range(1, b) if 2 * r != b]))}
    if n == "paged_max_seqs":  # a partly filled last block, a budget that is not a whole number of sequences
        b = draw(st.sampled_from([16, 32]))
        seq, kvt = b * draw(ints(4, 20)) + draw(ints(1, b // 2)), draw(fl(1e4, 4e5))  # waste >= 2.5 %
        per = -(-seq // b) * b * kvt
        return {"block_size": b, "seq": seq, "kv_bytes_per_token": kvt,
                "kv_budget": per * (draw(ints(100, 400)) + draw(fl(0.05, 0.5)))}
    if n == "moe_expert_capacity":
        return {"tokens": draw(ints(1000, 100000)), "top_k": draw(st.sampled_from([2, 8])),
                "n_experts": draw(st.sampled_from([8, 64, 128])), "capacity_factor": draw(fl(1.1, 2))}
    return {i.name: draw(FALLBACK.get(i.name, fl(2, 100))) if not i.is_list else tuple(draw(st.lists(fl(1e-3, 1), min_size=2, max_size=6)))
            for i in f.inputs}


# One strategy per formula, made once: a composite's draws depend only on its function and arguments, so the same
# examples are drawn; making it (and Hypothesis checking it) again for each of 8,600 examples was ~8 % of the two
# properties below.
typical = cache(typical)


# Inputs of formulas added later, until they get a typical-inputs entry above.
FALLBACK = {"phi": fl(1e9, 1e12), "bandwidth": fl(900 * GB, 8000 * GB), "peak_flops": fl(1e14, 3e15),
            "n_gpus": ints(2, 4096), "layers": ints(2, 96), "bytes_per_elem": st.sampled_from([0.5, 2, 4])}


def _whole_inside(f, env):
    """A ceil/floor formula whose argument is already whole: rounding either way is no mistake."""
    inner = ex.evaluate(f.node.args[0], env)
    return abs(inner - round(inner)) < 1e-9


def _rounds(f) -> bool:
    return isinstance(f.node, ex.Call) and f.node.fn in ("ceil", "floor")


# A misconception that, by its nature, IS the right answer in part of the input space.
COINCIDES_BY_DESIGN = {
    ("attainable_flops", "peak"): lambda f, e: e["intensity"] * e["bandwidth"] >= e["peak_flops"],  # compute-bound
    ("attainable_flops", "slope"): lambda f, e: e["intensity"] * e["bandwidth"] <= e["peak_flops"],  # memory-bound
    **{(f.name, m.key): _whole_inside for f in CATALOGUE if _rounds(f) for m in f.misconceptions
       if m.key.startswith("rounded")},
    # the group scales move the speed-up by less than their 1.5-12.5 % share of the weight bytes: the templates grade
    # it within 1 % and 1.5 % (serving.QUANT_TOLERANCE, QUANT_CLOSE), an approximation when the KV reads swamp it
    ("quant_decode_speedup", "no_group_overhead_decode"): lambda f, e: True,
    # a bf16 base (plain LoRA) is what this slip assumes: it names QLoRA's mistake, and plain LoRA's own answer
    ("lora_train_bytes", "bf16_base_lora"): lambda f, e: e["bytes_per_frozen_param"] == 2,
    # fp32 block constants without double quantisation (4.5 bits) is the scheme this slip assumes
    ("qlora_base_bytes", "no_double_quant"): lambda f, e: e["bits_per_weight"] == 4.5,
    # the PUE's share of an owned GPU-hour is a few cents against dollars of purchase: named only where power is dear
    ("owned_gpu_hour_cost", "no_pue"): lambda f, e: e["power_w"] * (e["pue"] - 1) * e["price_per_kwh"] / 1000
        < 0.06 * f.evaluate(**e),
    ("breakeven_utilisation", "no_power"): lambda f, e: e["power_w"] * e["pue"] * e["price_per_kwh"] / 1000
        < 0.06 * e["rental_price"],
    # one token per patch is the right count for a plain ViT (merge 1): the slip is forgetting Qwen2-VL's 2 x 2 merge
    ("vision_tokens_per_image", "no_merge"): lambda f, e: e["merge"] == 1,
    # MX's block of 32 is the right block for MXFP4 and MXFP8: the slip is using it for NVFP4's 16
    ("quant_bits_per_weight", "mx_block"): lambda f, e: e["group_size"] == 32,
    # adding the phases is the sync schedule's own answer; the async slip is named only in one_step_async
    ("rl_step_time", "added_async"): lambda f, e: e.get("mode", 0) == 0,
    # the sender side is what the slip forgets: where the receivers are slower it changes nothing
    ("weight_sync_time", "receiver_only"): lambda f, e: e["weight_bytes"] / (e["gpus_per_replica"]
        * e["link_bandwidth"]) >= min(e.get("sender_copies", e["replicas"]), e["replicas"]) * e["weight_bytes"]
        / (e["n_senders"] * e["link_bandwidth"]),
    # the queue wait's tail differs from the response's by ln ρ / ln(1/(1-p)): under 5 % at high utilisation,
    # where the two are the same lesson (a template names the slip only where they are apart)
    ("mm1_response_percentile", "queue_wait_percentile"):
        lambda f, e: abs(math.log(e["utilisation"])) / math.log(1 / (1 - e["percentile"])) < 0.06,
    # plain 4 bits is 3 % below 4.127: the templates grade the base within 1.5 % (NF4_TOLERANCE) to name it
    ("qlora_base_bytes", "nf4_only"): lambda f, e: True,
    # TTFT is the slower of compute and the weight read: each slip in the compute term is the answer when the
    # weight read sets it, and leaving the weight read out is the answer when compute does
    ("ttft_floor", "compute_only_ttft"): lambda f, e: f.part_values(e)["t_compute"] >= f.part_values(e)["t_weights"],
    ("ttft_floor", "training_flops_floor"): lambda f, e: 3 * f.part_values(e)["t_compute"] <= f.part_values(e)["t_weights"],
    ("ttft_floor", "no_mfu_floor"): lambda f, e: f.part_values(e)["t_compute"] * e["mfu"] <= f.part_values(e)["t_weights"],
}


@pytest.mark.parametrize("f", CATALOGUE, ids=lambda f: f.name)
@settings(max_examples=examples(25))  # per formula: ~50 formulas x 25 draws keeps the suite fast
@given(data=st.data())
def test_every_formula_evaluates_and_explains_itself(f, data):
    env = data.draw(typical(f))
    v = f.evaluate(**env)
    assert math.isfinite(v) and v > 0
    lines = f.solution(**env)
    assert len(lines) == 3
    assert lines[0].startswith(f"{f.result_symbol or f.name} = ")
    assert lines[1].startswith("  = ") and lines[2].startswith("  = ")
    assert lines[2] == "  = " + result_text(v, f.unit)
    assert fmt_whole(v) in lines[2]  # whole numbers exactly
    if f.unit not in ("count", "ratio"):
        assert KINDS[f.unit] in lines[2]


@pytest.mark.parametrize("f", [f for f in CATALOGUE if f.misconceptions], ids=lambda f: f.name)
@settings(max_examples=examples(25))
@given(data=st.data())
def test_no_misconception_coincides_with_the_right_answer(f, data):
    env = data.draw(typical(f))
    right = f.evaluate(**env)
    values = f.misconception_values(**env)
    assert {m.key for m, _ in values} == {m.key for m in f.misconceptions}  # typical inputs cover every one
    for m, wrong in values:
        if COINCIDES_BY_DESIGN.get((f.name, m.key), lambda f, e: False)(f, env):
            continue
        if _rounds(f):  # whole-number answers are graded exactly
            assert wrong != right, (m.key, env)
        else:
            assert distance(wrong, right) > DEFAULT_TOLERANCE, (m.key, env, wrong, right)


def test_critical_batch_ridge_misconception_coincides_at_two_bytes():
    """At bf16 bytes/2 = 1, so 'gave the ridge point' is no mistake: templates use other dtypes or the grader skips it."""
    f = get("critical_batch")
    env = {"peak_flops": 989e12, "bandwidth": 3.35e12, "bytes_per_elem": 2}
    values = dict((m.key, v) for m, v in f.misconception_values(**env))
    assert values["ridge"] == pytest.approx(f.evaluate(**env))
    assert distance(values["no_half"], f.evaluate(**env)) > DEFAULT_TOLERANCE


# Values a problem gives beside the formula's inputs (Ask.extras), by formula.
EXTRAS = {"kv_cache_bytes": {"n_heads"}, "kv_bytes_per_token": {"n_heads"},
          "whole_model_activation_bytes": {"s", "b", "h", "a"}, "quant_weights_bytes": {"bits"},
          "quant_decode_speedup": {"bits"},
          "weights_bytes": {"phi_active"}, "forward_flops_per_token": {"phi_total"},
          "inflight_microbatches_1f1b": {"m"}, "train_cost": {"n_gpus"}, "mbu": {"batch"},
          "logits_bytes": {"d_model"}, "ridge_point": {"peak_flops_16"},
          "it_power_per_gpu": {"gpu_tdp"}, "facility_power": {"gpu_tdp"},
          "moe_node_limited_ib_bytes_per_token": {"top_k"}, "nvls_allreduce_time": {"n"},
          "tile_intensity": {"m", "n", "k"}, "async_checkpoint_stall": {"checkpoint_bytes", "write_bandwidth", "n_gpus"},
          "multi_lora_step_bytes": {"batch"}}


def test_misconceptions_use_only_inputs_or_named_extras():
    for f in CATALOGUE:
        for m in f.misconceptions:
            assert ex.names_in(m.node) <= set(f.input_names) | EXTRAS.get(f.name, set()), (f.name, m.key)
            assert m.label and m.label[0].islower(), (f.name, m.key)  # reads after "Looks like you"


def test_every_expression_uses_exactly_its_inputs():
    for f in CATALOGUE:
        assert ex.names_in(f.node) == set(f.input_names), f.name  # f.node raises ValueError otherwise
    with pytest.raises(ValueError, match="expression uses"):
        _ = formulas.Formula("broken", (formulas.PHI,), "phi*n_dp", "bytes", "", "").node


def test_names_are_unique_and_get_finds_them():
    assert len({f.name for f in CATALOGUE}) == len(CATALOGUE)
    assert get("ridge_point").name == "ridge_point"
    with pytest.raises(FormulaError, match="did you mean ridge_point"):
        get("ridge_pont")
    with pytest.raises(FormulaError, match="drill calc --list"):
        get("nothing_like_it")


def test_evaluate_reports_missing_inputs_and_bad_values():
    f = get("allreduce_bytes")
    with pytest.raises(FormulaError, match="missing input n"):
        f.evaluate(m=1e9)
    with pytest.raises(FormulaError, match="division by zero"):
        f.evaluate(m=1e9, n=0)
    assert f.evaluate(m=1e9, n=8, unrelated=3) == pytest.approx(1.75e9)


@pytest.mark.parametrize("name, texts, values", [
    ("ridge_point", {"peak_flops": "989TFLOPS", "bandwidth": "3.35TB/s"}, {"peak_flops": 989e12, "bandwidth": 3.35e12}),
    ("train_static_bytes", {"phi": "70B"}, {"phi": 7e10}),
    ("train_static_bytes", {"phi": "70e9"}, {"phi": 7e10}),
    ("kv_bytes_per_token", {"layers": "80", "n_kv_heads": "8", "d_head": "128", "bytes_per_elem": "fp16"},
     {"layers": 80, "n_kv_heads": 8, "d_head": 128, "bytes_per_elem": 2}),
    ("bubble_asymmetric", {"stage_times": "10ms,12ms,8ms", "m": "8"}, {"stage_times": (0.01, 0.012, 0.008), "m": 8}),
    ("bubble_asymmetric", {"stage_times": "[10,12,8]ms", "m": "8"}, {"stage_times": (0.01, 0.012, 0.008), "m": 8}),
    ("train_time", {"phi": "70B", "tokens": "2T", "n_gpus": "2048", "peak_flops": "989 TFLOPS", "mfu": "45%"},
     {"phi": 7e10, "tokens": 2e12, "n_gpus": 2048, "peak_flops": 989e12, "mfu": 0.45}),
    ("allreduce_time", {"m": "1 GB", "n": "8", "alpha": "5us", "beta": "400 Gbps"},
     {"m": 1e9, "n": 8, "alpha": 5e-6, "beta": 50e9}),
])
def test_read_inputs(name, texts, values):
    f = get(name)
    got, _ = f.read_inputs(texts)
    # an omitted convention takes its default
    assert got == {**{i.name: i.default_value for i in f.inputs if i.quiet and i.name not in values}, **got}
    got = {k: v for k, v in got.items() if not (f.input(k).quiet and k not in texts)}
    assert got.keys() == values.keys()
    for k, v in values.items():
        assert got[k] == pytest.approx(v), k


def test_read_inputs_notes_how_values_were_read():
    _, notes = get("ridge_point").read_inputs({"peak_flops": "989e12", "bandwidth": "3.35e12"})
    assert "peak_flops: a bare number is read in FLOP/s" in [str(n) for n in notes]
    assert "peak_flops：不带单位的数按 FLOP/s 读取" in [n.text("zh") for n in notes]
    _, notes = get("train_static_bytes").read_inputs({"phi": "70B"})
    assert notes and "B read as" in str(notes[0]) and "读作" in notes[0].text("zh")
    _, notes = get("weights_bytes").read_inputs({"phi": "7B", "bytes_per_param": "bf16"})
    assert [n.text("zh") for n in notes][-1] == "bytes_per_param：bf16 = 每个元素 2 B"


@pytest.mark.parametrize("texts, zh", [
    ({"peak_flops": "989TFLOPS"}, "ridge_point：缺少输入 bandwidth（需要 peak_flops, bandwidth）"),
    ({"peak_flops": "1", "bandwidth": "1", "extra": "1"}, "ridge_point：没有名为“extra”的输入"),
    ({"peak_flops": "abc", "bandwidth": "1"}, "ridge_point：peak_flops=abc：未知的单位或词“abc”"),
    ({"peak_flops": "-1", "bandwidth": "1"}, "peak_flops 不能为负数"),
    ({"peak_flops": "1", "bandwidth": "0"}, "ridge_point：除以零"),
])
def test_formula_errors_are_worded_in_chinese_too(texts, zh):
    f = get("ridge_point")
    with pytest.raises(FormulaError) as e:
        f.evaluate(**f.read_inputs(texts)[0])
    assert zh in e.value.text("zh")
    assert not CJK.search(str(e.value))


def test_unknown_formula_in_chinese():
    with pytest.raises(FormulaError) as e:
        get("ridge_pont")
    assert e.value.text("zh") == "没有名为“ridge_pont”的公式（是不是 ridge_point？见 `drill calc --list`）"


@pytest.mark.parametrize("texts, reason", [
    ({"peak_flops": "989TFLOPS"}, "missing input bandwidth"),
    ({"peak_flops": "1", "bandwidth": "1", "extra": "1"}, "unknown input 'extra'"),
    ({"peak_flops": "abc", "bandwidth": "1"}, "peak_flops=abc: unknown unit or word 'abc'"),
    ({"peak_flops": "3 TB/s", "bandwidth": "1"}, "TB/s is a bandwidth (bytes per second), not a compute rate"),
    ({"peak_flops": "-1", "bandwidth": "1"}, "cannot be negative"),
    ({"peak_flops": "nan", "bandwidth": "1"}, "not a finite number"),
])
def test_read_inputs_errors_name_the_input(texts, reason):
    with pytest.raises(FormulaError, match=re.escape(reason)):
        get("ridge_point").read_inputs(texts)


def test_list_input_errors():
    with pytest.raises(FormulaError, match="stage_times=10ms,abc: item 2"):
        get("bubble_asymmetric").read_inputs({"stage_times": "10ms,abc", "m": "4"})


def test_formula_text_uses_the_shown_symbols():
    assert get("zero2_bytes").formula_text() == "M_ZeRO-2 = 2 × Φ + 14 × Φ / N_dp"
    assert get("allreduce_time").formula_text() == "allreduce_time = 2 × (N − 1) × α + 2 × (N − 1) / N × M / β"


def _met(requirement, node, env) -> bool:
    try:
        return requirement.met(ex.evaluate(node, env))
    except ex.ExprError:  # ln of a negative number: outside the formula's domain
        return False


def test_symbolic_forms_match_numeric_evaluation():
    import sympy

    for f in CATALOGUE:
        if any(i.is_list for i in f.inputs):
            continue
        sym = f.symbolic()
        env = {i.name: 3.0 + k for k, i in enumerate(f.inputs)}
        if f.requires and not all(_met(r, node, env) for r, node in f.requirement_nodes):
            env = {**f.defaults, **f.example}  # a point where it is defined (grad_accum_steps must divide)
        subs = {s: env[s.name] for s in sym.free_symbols}
        assert float(sym.subs(subs)) == pytest.approx(f.evaluate(**env)), f.name
    phi, n = sympy.symbols("phi n_dp", positive=True)
    zero2 = get("zero2_bytes").symbolic()
    zero2 = zero2.subs({s: 16 for s in zero2.free_symbols if s.name == "recipe"})  # the default recipe
    assert sympy.simplify(zero2 - (2 * phi + 14 * phi / n)) == 0


def test_classify_bound():
    assert classify_bound(1, 153) == "memory-bound"
    assert classify_bound(153, 153) == "compute-bound"
    lines = bound_solution(1365.3, 295.2)
    assert len(lines) == 3 and lines[-1].startswith("  = compute-bound")
    assert "1365 FLOP/B ≥ I* = 295.2 FLOP/B" in lines[1]


def test_result_text():
    assert result_text(1.12e12, "bytes") == "1.12 × 10¹² B (1.12 TB)"
    assert result_text(0.4667, "ratio") == "0.4667 (46.67 %)"
    assert result_text(14, "count") == "14"
    assert result_text(295.2, "intensity") == "295.2 FLOP/B"


# --------------------------------------------------------------------------- the spec table

def _spec_rows():
    """(name, inputs) of every row of the spec's formula tables: those whose header is `| name | inputs | ...`
    (part 3's "conventions are inputs" table lists formulas by another header and is not one of them)."""
    rows, in_table = [], False
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        if re.match(r"\| name \| inputs \|", line):
            in_table = True
            continue
        m = re.match(r"\| `(\w+)` \| ([^|]*) \| ([^|]*) \| ([^|]*) \|", line)
        if in_table and m:
            # "servers (1)": a default (part 4) or "(list)" after an input's name is not part of it
            rows.append((m.group(1), tuple(re.sub(r"\s*\(.*\)$", "", i.strip()) for i in m.group(2).split(","))))
    return rows


# Formulas the spec names that the catalogue does not have yet (none since part 4 was built); one the spec adds
# goes here until it is built, and test_spec_formulas_not_yet_built keeps it exact.
NOT_YET_BUILT: frozenset[str] = frozenset()


@pytest.mark.skipif(not SPEC.exists(), reason="shared/spec/formulas.md is not next to this checkout")
def test_catalogue_matches_the_spec_names_and_inputs():
    """The spec's names and input names are drill calc's public interface.  A formula may take more inputs
    than its spec row (the conventions of part 3: `bytes_per_param`, `ring_factor`, ...), after them."""
    rows = _spec_rows()
    assert len(rows) >= 38
    for name, inputs in rows:  # the spec's names are a public interface; more formulas may follow them
        if name in NOT_YET_BUILT:
            continue
        assert get(name).input_names[:len(inputs)] == inputs, name


@pytest.mark.skipif(not SPEC.exists(), reason="shared/spec/formulas.md is not next to this checkout")
def test_spec_formulas_not_yet_built():
    missing = {name for name, _ in _spec_rows() if name not in formulas.FORMULAS}
    assert missing == NOT_YET_BUILT


def test_catalogue_is_defined_once():
    assert {f.name: f for f in CATALOGUE} == formulas.FORMULAS


def _spec_names() -> set[str]:
    return {name for name, _ in _spec_rows()} if SPEC.exists() else set()


# The spec's part 3 later named, for QLoRA's NF4 base, the expression the bank already had for group-quantised
# weights (Φ × bits / 8): both names are public (drill calc, saved reviews), each with its own teaching.
SAME_BY_SPEC = {("quant_weights_bytes", "qlora_base_bytes")}


def test_formulas_beyond_the_spec_repeat_no_other_formula():
    """One formula, one definition: a formula the question bank added is neither another formula under a
    new name (gradient bytes = weights bytes) nor another one times one of its inputs (L × the per-layer
    activations: compose whole_model_activation_bytes with activation_bytes_layer instead).  Spec formulas
    may share an expression (ring ReduceScatter, AllGather and All-to-All cost the same)."""
    import sympy

    if not SPEC.exists():
        pytest.skip(f"the spec ({SPEC}) is not beside this checkout: the spec's own formulas can't be told apart")
    spec = _spec_names()
    forms = {f.name: f for f in CATALOGUE if not any(i.is_list for i in f.inputs)}
    # two generic points: formulas that differ at one of them differ (the engine evaluates them fast);
    # sympy.simplify, slow on max()/ceil() forms, only confirms a pair that agrees numerically
    names = sorted({n for f in forms.values() for n in f.input_names})
    points = [{n: 1.37 + 0.61 * k for k, n in enumerate(names)}, {n: 2.9 + 0.23 * k * k for k, n in enumerate(names)}]

    def same(a, b, x=None) -> bool:
        for env in points:
            try:
                va, vb = a.evaluate(**env), b.evaluate(**env) * (env[x] if x else 1.0)
            except FormulaError:  # one refuses the point (a requirement): they are not the same formula
                return False
            if abs(va - vb) > 1e-9 * max(abs(va), abs(vb), 1.0):
                return False
        other = b.symbolic() * (sympy.Symbol(x, positive=True) if x else 1)
        return sympy.simplify(a.symbolic() - other) == 0

    for f in CATALOGUE:
        if f.name in spec or f.name not in forms:
            continue
        for other, theirs in forms.items():
            if other == f.name or (f.name, other) in SAME_BY_SPEC:
                continue
            assert not same(f, theirs), f"{f.name} is {other} under another name"
            for x in set(f.input_names) - set(theirs.input_names):
                assert not same(f, theirs, x), f"{f.name} is {x} × {other}: compose them instead"


# --------------------------------------------------------------------------- Chinese labels

def test_every_misconception_has_a_chinese_label():
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for f in CATALOGUE:
        for m in f.misconceptions:
            assert cjk.search(m.label_zh), f"{f.name}.{m.key} has no Chinese label"
            assert not cjk.search(m.label) and m.label_zh != m.label


def test_a_misconception_has_one_chinese_label_wherever_it_appears():
    from engine.grading import misconception_label

    seen: dict[str, str] = {}
    for f in CATALOGUE:
        for m in f.misconceptions:
            assert seen.setdefault(m.label, m.label_zh) == m.label_zh, m.label
            assert misconception_label(m.label, "zh") == m.label_zh  # a saved (English) label shown in Chinese
            assert misconception_label(m.label) == m.label
