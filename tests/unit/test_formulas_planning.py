"""The spec's part 3 (the 2026 interview formulas): values on round and published numbers, their convention
inputs, refusals, `drill calc` round trips and teaching content in both languages, and the new unit kinds."""

import json
import math
import re

import pytest

from drill.cli import main
from engine.answers import Parsed, parse_quantity
from engine.formulas import FormulaError, get
from tests.reference import has_code

CJK = re.compile(r"[\u4e00-\u9fff]")

# name -> (inputs, value): round numbers, with where the figure comes from when it is a published one
CASES = {
    # 6ΦD of a 70B model on 15T tokens at 40% MFU on H100s: ~4.4M GPU-hours (Llama 3 70B reports 7.0M with its MFU)
    "gpu_hours": ({"flops": 6.3e24, "peak_flops": 989e12, "mfu": 0.4}, 6.3e24 / (989e12 * 0.4) / 3600),
    "train_cost": ({"gpu_hours": 4.4e6, "price_per_gpu_hour": 2.5}, 1.1e7),
    "cost_per_mtok": ({"price_per_gpu_hour": 2.5, "n_gpus": 8, "tokens_per_s": 20000}, 1e6 * 20 / (3600 * 20000)),
    "concurrency": ({"arrival_rate": 50, "latency": 4}, 200),
    "request_latency": ({"ttft": 0.5, "output_tokens": 256, "tpot": 0.02}, 0.5 + 255 * 0.02),
    "replicas_needed": ({"arrival_rate": 20, "tokens_per_request": 500, "tokens_per_s_per_replica": 5000,
                         "utilisation": 0.7}, 3),
    "mbu": ({"bytes_per_step": 150e9, "steps_per_s": 15, "bandwidth": 3.35e12}, 150e9 * 15 / 3.35e12),
    "lora_params": ({"layers": 32, "d_in": 4096, "d_out": 4096, "rank": 16, "n_matrices": 4}, 32 * 4 * 16 * 8192),
    "lora_train_bytes": ({"phi": 7e9, "phi_trainable": 20e6, "bytes_per_frozen_param": 2}, 14e9 + 320e6),
    # QLoRA: NF4 with double quantisation is 4 + 8/64 + 32/(64·256) = 4.127 bits; a 65B base is ~33.5 GB
    "qlora_base_bytes": ({"phi": 65e9, "bits_per_weight": 4 + 8 / 64 + 32 / (64 * 256)},
                         65e9 * (4 + 8 / 64 + 32 / (64 * 256)) / 8),
    "ppo_static_bytes": ({"phi_policy": 7e9, "phi_critic": 7e9, "phi_reference": 7e9, "phi_reward": 7e9}, 252e9),
    "grpo_static_bytes": ({"phi_policy": 7e9, "phi_reference": 7e9, "phi_reward": 0}, 126e9),
    "rollout_tokens": ({"prompts": 512, "group_size": 16, "response_tokens": 1024}, 512 * 16 * 1024),
    "checkpoint_bytes": ({"phi": 70e9}, 980e9),
    "checkpoint_write_time": ({"checkpoint_bytes": 980e9, "write_bandwidth": 100e9}, 9.8),
    "cluster_mtbf": ({"node_mtbf": 365 * 86400, "n_nodes": 1000}, 31536),
    "young_daly_interval": ({"checkpoint_time": 60, "mtbf": 10800}, math.sqrt(2 * 60 * 10800)),
    "checkpoint_waste": ({"checkpoint_time": 60, "interval": 1200, "mtbf": 10800}, 0.05 + 1200 / 21600),
    "training_goodput": ({"checkpoint_time": 60, "interval": 1200, "mtbf": 10800, "restart_time": 600},
                         1 - 0.05 - 1200 / 10800),
    "kv_transfer_time": ({"kv_bytes_per_token": 327680, "prompt_tokens": 4096, "link_bandwidth": 50e9},
                         327680 * 4096 / 50e9),
    "prefill_instances": ({"arrival_rate": 10, "prefill_time": 0.25, "utilisation": 0.7}, 4),
    "decode_instances": ({"arrival_rate": 10, "output_tokens": 500, "tokens_per_s_per_instance": 2000}, 3),
    "ring_attention_kv_bytes": ({"batch": 1, "seq": 131072, "cp": 8, "n_kv_heads": 8, "d_head": 128,
                                 "bytes_per_elem": 2}, 7 * 2 * 16384 * 8 * 128 * 2),
    # MHA check of the spec's note: 4 (S/CP) d_model (CP-1)/CP values
    "ulysses_alltoall_bytes": ({"batch": 1, "seq": 8192, "cp": 4, "n_heads": 32, "n_kv_heads": 32, "d_head": 128,
                                "bytes_per_elem": 1}, 4 * (8192 / 4) * 4096 * 3 / 4),
    # DeepSeek-V3 Table 2 with PP 8: 1F1B (PP-1)(F+B), ZB1P (PP-1)(F+B-2W), DualPipe (PP/2-1)(F&B+B-3W)
    "bubble_time_1f1b": ({"p": 8, "t_f": 0.01, "t_b": 0.02}, 7 * 0.03),
    "bubble_time_zb1p": ({"p": 8, "t_f": 0.01, "t_b": 0.02, "t_w": 0.01}, 7 * 0.01),
    "bubble_time_dualpipe": ({"p": 8, "t_fb": 0.025, "t_b": 0.02, "t_w": 0.01}, 3 * 0.015),
    # Llama 3 8B (Φ ≈ 8e9, L = 32, d = 4096): attention is half the training FLOPs at 6Φ / (12·L·d) ≈ 30.5k tokens
    "attention_share_seq": ({"phi": 8e9, "layers": 32, "share": 0.5, "d_model": 4096}, 6 * 8e9 / (12 * 32 * 4096)),
    # Al-Fares: k = 48 three tiers, 27,648 hosts; two tiers k²/2
    "fat_tree_hosts": ({"radix": 48, "tiers": 3}, 27648),
    "bisection_bandwidth": ({"n_hosts": 1024, "link_bandwidth": 50e9, "oversubscription": 2}, 1.28e13),
    "hierarchical_allreduce_time": ({"m": 1e9, "gpus_per_node": 8, "n_nodes": 16, "intra_bandwidth": 450e9,
                                     "inter_bandwidth": 50e9}, 2 * 7 / 8 * 1e9 / 450e9 + 2 * 15 / 16 * 1.25e8 / 50e9),
    "dp_min_batch_per_device": ({"peak_flops": 989e12, "link_bandwidth": 50e9, "gpus_per_node": 8}, 2472.5),
    "prefix_cache_saved_flops": ({"phi": 8e9, "prefix_tokens": 2000, "requests": 100}, 2 * 8e9 * 2000 * 99),
    # Mistral 7B: window 4096, 32 layers, 8 KV heads of 128: 512 MiB per sequence however long
    "sliding_window_kv_bytes": ({"batch": 1, "seq": 32768, "window": 4096, "layers": 32, "n_kv_heads": 8,
                                 "d_head": 128, "bytes_per_elem": 2}, 2 ** 29),
    "kv_offload_time": ({"kv_bytes": 10e9, "link_bandwidth": 64e9}, 10 / 64),
    "logits_bytes": ({"batch": 8, "seq": 8192, "vocab": 128256, "bytes_per_elem": 4}, 8 * 8192 * 128256 * 4),
    "attention_flops_share": ({"phi": 8e9, "layers": 32, "seq": 8192, "d_model": 4096},
                              12 * 32 * 8192 * 4096 / (48e9 + 12 * 32 * 8192 * 4096)),
    # Chinchilla itself (70B, 1.4T tokens): the fit gives ~1.94 nats
    "chinchilla_loss": ({"phi": 70e9, "tokens": 1.4e12}, 1.69 + 406.4 / 70e9 ** 0.34 + 410.7 / 1.4e12 ** 0.28),
    "energy_per_token": ({"power_w": 700, "n_gpus": 8, "tokens_per_s": 20000}, 0.28),
    "training_energy_mwh": ({"gpu_hours": 4.4e6, "power_w": 700, "pue": 1.2}, 3696),
    "global_batch_tokens": ({"micro_batch": 1, "grad_accum": 16, "n_dp": 128, "seq": 8192}, 2 ** 24),
    "grad_accum_steps": ({"global_batch": 1024, "micro_batch": 2, "n_dp": 64}, 8),
    "critical_batch_exact": ({"peak_flops": 989e12, "bandwidth": 3.35e12, "d": 8192, "f": 8192, "bytes_per_elem": 2},
                             (lambda r: r * 2 * 8192 * 8192 / (2 * 8192 * 8192 - r * 2 * 16384))(989e12 / 3.35e12)),
}


@pytest.mark.parametrize("name", CASES)
def test_value_on_round_numbers(name):
    inputs, value = CASES[name]
    assert get(name).evaluate(**inputs) == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize("name", CASES)
def test_drill_calc_round_trip(name, capsys):
    inputs, value = CASES[name]
    args = [f"{k}={v!r}" for k, v in inputs.items()]
    assert main(["calc", name, *args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"] == pytest.approx(value, rel=1e-9)
    assert doc["steps"][-1].startswith("Takeaway: ")
    assert main(["calc", name, *args, "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "面试要点：" in out and CJK.search(out.splitlines()[0])


@pytest.mark.parametrize("name", CASES)
def test_teaching_content_in_both_languages(name):
    f = get(name)
    assert f.decomposition and f.decomposition_zh and f.takeaway and f.takeaway_zh and f.example
    assert CJK.search(f.meaning_zh) and all(CJK.search(d) for d in f.decomposition_zh) and CJK.search(f.takeaway_zh)
    assert not any(CJK.search(d) for d in f.decomposition) and not CJK.search(f.takeaway)
    for lang in ("en", "zh"):
        source = f.readable_source(lang)
        assert source and not has_code(source), (name, source)
        lines = f.worked(f.example, lang)
        assert not any(re.search(r"\{[a-z_]+\}", x) for x in lines), lines  # every placeholder filled
    for i in f.inputs:
        assert CJK.search(i.meaning_in("zh")), (name, i.name)
    for m in f.misconceptions:
        assert m.label[0].islower() and CJK.search(m.label_zh)


# --------------------------------------------------------------------------- conventions with a default

@pytest.mark.parametrize("name, given, convention, value", [
    ("request_latency", {"ttft": 0.5, "output_tokens": 256, "tpot": 0.02}, {"first_token_in_ttft": 0}, 0.5 + 256 * 0.02),
    ("attention_flops_share", {"phi": 8e9, "layers": 32, "seq": 8192, "d_model": 4096}, {"causal": 6},
     6 * 32 * 8192 * 4096 / (48e9 + 6 * 32 * 8192 * 4096)),
    ("hierarchical_allreduce_time", CASES["hierarchical_allreduce_time"][0], {"overlap": 1}, 2 * 15 / 16 * 1.25e8 / 50e9),
    ("bisection_bandwidth", CASES["bisection_bandwidth"][0], {"directions": 2}, 2.56e13),
    ("young_daly_interval", {"checkpoint_time": 60, "mtbf": 10800}, {"restart_time": 600},
     math.sqrt(2 * 60 * 11400)),
    ("energy_per_token", CASES["energy_per_token"][0], {"pue": 1.25}, 0.35),
])
def test_a_convention_input_defaults_to_the_seeds_and_takes_the_other_value(name, given, convention, value):
    f = get(name)
    assert f.evaluate(**given) == pytest.approx(CASES[name][1])
    assert f.evaluate(**given, **convention) == pytest.approx(value)
    key = next(iter(convention))
    assert key in f.input_names and f.input(key).has_default
    assert any(line.strip().startswith(f"{f.input(key).shown} = ") and "(default" in line for line in f.worked(given))


def test_conventions_are_typed_by_name_in_drill_calc(capsys):
    assert main(["calc", "request_latency", "ttft=500ms", "output_tokens=256", "tpot=20ms",
                 "first_token_in_ttft=false", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == pytest.approx(5.62)
    assert main(["calc", "attention_flops_share", "phi=8B", "layers=32", "seq=8192", "d_model=4096",
                 "causal=maybe"]) == 2
    assert "causal is one of: false" in capsys.readouterr().err


# --------------------------------------------------------------------------- refusals

def test_critical_batch_exact_refuses_a_matmul_that_is_never_compute_bound(capsys):
    f = get("critical_batch_exact")
    narrow = {"peak_flops": 989e12, "bandwidth": 3.35e12, "d": 512, "f": 256, "bytes_per_elem": 2}
    with pytest.raises(FormulaError) as e:
        f.evaluate(**narrow)
    assert "never compute-bound" in str(e.value) and "永远不会计算受限" in e.value.text("zh")
    assert main(["calc", "critical_batch_exact", "peak_flops=989TFLOPS", "bandwidth=3.35TB/s", "d=512", "f=256",
                 "bytes_per_elem=bf16"]) == 2
    assert "never compute-bound" in capsys.readouterr().err


def test_critical_batch_exact_tends_to_the_large_matrix_limit():
    f, limit = get("critical_batch_exact"), get("critical_batch")
    env = {"peak_flops": 989e12, "bandwidth": 3.35e12, "bytes_per_elem": 2}
    big = f.evaluate(**env, d=1e7, f=1e7)
    assert big == pytest.approx(limit.evaluate(**env), rel=1e-3)
    assert f.evaluate(**env, d=8192, f=8192) > big


def test_grad_accum_steps_refuses_a_batch_that_does_not_divide():
    with pytest.raises(FormulaError, match="not a whole number"):
        get("grad_accum_steps").evaluate(global_batch=1000, micro_batch=3, n_dp=64)


# --------------------------------------------------------------------------- unit kinds

@pytest.mark.parametrize("text, kind, value", [
    ("12 USD", "dollars", 12), ("1.1e7 $", "dollars", 1.1e7), ("2.5 $/GPU-h", "usd_per_gpu_hour", 2.5),
    ("0.28 $/Mtok", "usd_per_mtok", 0.28), ("4.4e6 GPU-h", "gpu_hours", 4.4e6), ("50 req/s", "req_rate", 50),
    ("15 steps/s", "step_rate", 15), ("1.2 kW", "power", 1200), ("280 mJ/token", "energy_per_token", 0.28),
    ("3.7 GWh", "mwh", 3700), ("1.94 nats", "nats", 1.94),
])
def test_new_unit_kinds_are_read(text, kind, value):
    p = parse_quantity(text, kind)
    assert isinstance(p, Parsed) and p.value == pytest.approx(value)


def test_a_gpu_hour_is_not_an_hour():
    assert not isinstance(parse_quantity("3 h", "gpu_hours"), Parsed)
