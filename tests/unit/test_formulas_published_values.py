"""The spec's second catalogue table ("beyond the seeds"): values pinned to their sources, and `drill calc` serves each."""

import json

import pytest

from drill.cli import main
from engine.formulas import get

# Mixtral-8x7B from its config (32 layers, d 4096, 32 query / 8 KV heads of 128, FFN 14336, vocab 32000, 8 experts):
# one expert = 3 · 4096 · 14336 per layer × 32 layers; the rest = attention + embeddings + router + norms.
MIXTRAL_EXPERT = 32 * 3 * 4096 * 14336
MIXTRAL_DENSE = 32 * (2 * 4096 * 4096 + 2 * 4096 * 1024) + 2 * 32000 * 4096 + 32 * 4096 * 8 + 32 * 2 * 4096 + 4096


def _calc(capsys, *args: str) -> dict:
    assert main(["calc", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name, values, expected", [
    # Mixtral report: 46.7B total, 12.9B active (top-2 of 8)
    ("moe_total_params", {"phi_dense": MIXTRAL_DENSE, "phi_expert": MIXTRAL_EXPERT, "n_experts": 8}, 46_702_792_704),
    ("moe_active_params", {"phi_dense": MIXTRAL_DENSE, "phi_expert": MIXTRAL_EXPERT, "top_k": 2}, 12_879_925_248),
    # 4096 tokens, top-2, d 4096, bf16, 8-way EP: 2 · 4096 · 2 · 4096 · 2 · 7/8
    ("moe_alltoall_bytes", {"tokens": 4096, "top_k": 2, "d_model": 4096, "bytes_per_elem": 2, "n": 8},
     2 * 4096 * 2 * 4096 * 2 * 7 / 8),
    # Korthikanti Table 2, GPT-3 175B (s 2048, b 1, h 12288, a 96), t = 8
    ("activation_bytes_layer_tp", {"s": 2048, "b": 1, "h": 12288, "a": 96, "t": 8},
     2048 * 12288 * (10 + 24 / 8 + 5 * 96 * 2048 / (12288 * 8))),
    ("activation_bytes_layer_tp_sp", {"s": 2048, "b": 1, "h": 12288, "a": 96, "t": 8},
     2048 * 12288 * (34 + 5 * 96 * 2048 / 12288) / 8),
    # 70B, TP 8, PP 2, DP 4: (4·70e9 + 12·70e9/4) / 16 = 30.625 GB
    ("zero1_parallel_bytes", {"phi": 70e9, "tp": 8, "pp": 2, "n_dp": 4}, 30.625e9),
    ("zero2_parallel_bytes", {"phi": 70e9, "tp": 8, "pp": 2, "n_dp": 4}, (140e9 + 14 * 70e9 / 4) / 16),
    ("zero3_parallel_bytes", {"phi": 70e9, "tp": 8, "pp": 2, "n_dp": 4}, 16 * 70e9 / 64),
    # nccl-tests PERFORMANCE.md: busbw = algbw · 2(n−1)/n; 8 GPUs: × 1.75
    ("allreduce_busbw", {"algbw": 100e9, "n": 8}, 175e9),
    # Llama-3-70B bf16 (140 GB) on 8 × H100 (8 × 3.35 TB/s), 32 sequences of 320 MB KV: (140 + 10.24) GB / 26.8 TB/s
    ("decode_step_time", {"bandwidth": 26.8e12, "weight_bytes": 140e9, "kv_bytes_per_seq": 0.32e9, "batch": 32},
     (140e9 + 32 * 0.32e9) / 26.8e12),
    ("ttft", {"phi": 70e9, "prompt_tokens": 2000, "peak_flops": 989e12, "mfu": 0.5}, 2 * 70e9 * 2000 / (989e12 * 0.5)),
    # Llama-2-70B (64 heads, 8 KV heads), bf16 KV: 2 · 64 / (8 · 2) = 8 FLOP/B
    ("decode_attention_intensity", {"n_heads": 64, "n_kv_heads": 8, "bytes_per_elem": 2}, 8),
    # DeepSeek-V3: 61 layers, d_c 512, d_R 64, bf16: 70 272 B per token
    ("mla_kv_bytes_per_token", {"layers": 61, "kv_lora_rank": 512, "rope_dim": 64, "bytes_per_elem": 2}, 70_272),
    # int4, group 128, fp16 scale, no zero point: 4.125 bits
    ("quant_bits_per_weight", {"bits": 4, "group_size": 128, "scale_bits": 16, "zero_bits": 0}, 4.125),
    ("quant_bits_per_weight", {"bits": 4, "group_size": 128, "scale_bits": 16, "zero_bits": 16}, 4.25),
    ("paged_kv_blocks", {"seq": 1000, "block_size": 16}, 63),
    ("paged_kv_blocks", {"seq": 1024, "block_size": 16}, 64),
    # Leviathan et al.: α = 0.8, γ = 4 → (1 − 0.8⁵) / 0.2 = 3.3616 tokens per target pass
    ("spec_decode_tokens_per_step", {"acceptance": 0.8, "draft_tokens": 4}, 3.3616),
    ("spec_decode_speedup", {"acceptance": 0.8, "draft_tokens": 4, "cost_ratio": 0.05}, 3.3616 / 1.2),
    ("chinchilla_tokens", {"phi": 70e9}, 1.4e12),  # Chinchilla: 70B on 1.4T tokens
    ("chinchilla_params", {"compute": 6 * 70e9 * 1.4e12}, 70e9),
])
def test_part2_values(name, values, expected):
    assert get(name).evaluate(**values) == pytest.approx(expected, rel=1e-9)


def test_mixtral_is_not_eight_times_seven_billion():
    f = get("moe_total_params")
    wrong = dict((m.key, v) for m, v in f.misconception_values(phi_dense=MIXTRAL_DENSE, phi_expert=MIXTRAL_EXPERT,
                                                                n_experts=8))
    assert wrong["name_times_experts"] == pytest.approx(8 * (MIXTRAL_DENSE + MIXTRAL_EXPERT))  # ~57.9B, not 46.7B


def test_zero_parallel_reduces_to_plain_zero_without_model_parallelism():
    for stage in (1, 2, 3):
        plain, par = get(f"zero{stage}_bytes"), get(f"zero{stage}_parallel_bytes")
        assert par.evaluate(phi=70e9, tp=1, pp=1, n_dp=64) == pytest.approx(plain.evaluate(phi=70e9, n_dp=64))


def test_tp_sp_removes_exactly_the_replicated_layernorm_dropout_part():
    env = {"s": 4096, "b": 1, "h": 8192, "a": 64, "t": 8}
    tp, sp = get("activation_bytes_layer_tp").evaluate(**env), get("activation_bytes_layer_tp_sp").evaluate(**env)
    assert tp - sp == pytest.approx(10 * 4096 * 8192 * (1 - 1 / 8))
    no_tp = get("activation_bytes_layer").evaluate(s=4096, b=1, h=8192, a=64)
    assert sp == pytest.approx(no_tp / 8)


def test_spec_decode_limits():
    f = get("spec_decode_tokens_per_step")
    assert f.evaluate(acceptance=0.0, draft_tokens=4) == 1  # every draft rejected: the target's own token
    assert f.evaluate(acceptance=0.999999, draft_tokens=4) == pytest.approx(5, rel=1e-4)  # all accepted: γ + 1


# --------------------------------------------------------------------------- drill calc serves every one

@pytest.mark.parametrize("args, value, shown", [
    (("moe_total_params", "phi_dense=1.6057B", "phi_expert=5.637B", "n_experts=8"), 1.6057e9 + 8 * 5.637e9, "46,701,700,000"),
    (("moe_active_params", "phi_dense=1.6057B", "phi_expert=5.637B", "top_k=2"), 1.6057e9 + 2 * 5.637e9, "12,879,700,000"),
    (("moe_alltoall_bytes", "tokens=4096", "top_k=2", "d_model=4096", "bytes_per_elem=bf16", "n=8"),
     2 * 4096 * 2 * 4096 * 2 * 7 / 8, "117,440,512 B (112 MiB)"),
    (("activation_bytes_layer_tp", "s=2048", "b=1", "h=12288", "a=96", "t=8"),
     2048 * 12288 * (13 + 5 * 96 * 2048 / (12288 * 8)), "B"),
    (("activation_bytes_layer_tp_sp", "s=2048", "b=1", "h=12288", "a=96", "t=8"),
     2048 * 12288 * (34 + 80) / 8, "B"),
    (("zero1_parallel_bytes", "phi=70B", "tp=8", "pp=2", "n_dp=4"), 30.625e9, "30.63 GB"),
    (("zero2_parallel_bytes", "phi=70B", "tp=8", "pp=2", "n_dp=4"), 70e9 * (2 + 14 / 4) / 16, "24.06 GB"),
    (("zero3_parallel_bytes", "phi=70B", "tp=8", "pp=2", "n_dp=4"), 17.5e9, "17.5 GB"),
    (("allreduce_busbw", "algbw=100GB/s", "n=8"), 175e9, "175 GB/s"),
    (("decode_step_time", "bandwidth=26.8TB/s", "weight_bytes=140GB", "kv_bytes_per_seq=320MB", "batch=32"),
     150.24e9 / 26.8e12, "5.606 ms"),
    (("ttft", "phi=70B", "prompt_tokens=2000", "peak_flops=989TFLOPS", "mfu=50%"), 2 * 70e9 * 2000 / 494.5e12,
     "566.2 ms"),
    (("decode_attention_intensity", "n_heads=64", "n_kv_heads=8", "bytes_per_elem=bf16"), 8, "8 FLOP/B"),
    (("mla_kv_bytes_per_token", "layers=61", "kv_lora_rank=512", "rope_dim=64", "bytes_per_elem=bf16"), 70272,
     "70.27 kB"),
    (("quant_bits_per_weight", "bits=4", "group_size=128", "scale_bits=fp16", "zero_bits=0"), 4.125, "4.125 bit"),
    (("quant_bits_per_weight", "bits=4bit", "group_size=128", "scale_bits=16 bits", "zero_bits=4b"), 4 + 20 / 128,
     "4.156 bit"),
    (("paged_kv_blocks", "seq=1000", "block_size=16"), 63, "63"),
    (("spec_decode_tokens_per_step", "acceptance=0.8", "draft_tokens=4"), 3.3616, "3.362"),
    (("spec_decode_speedup", "acceptance=80%", "draft_tokens=4", "cost_ratio=0.05"), 3.3616 / 1.2, "280.1 %"),
    (("chinchilla_tokens", "phi=70B"), 1.4e12, "1.4 × 10¹²"),
    (("chinchilla_params", "compute=5.88e23FLOP"), 70e9, "7 × 10¹⁰"),
])
def test_drill_calc_serves_part2(capsys, args, value, shown):
    doc = _calc(capsys, *args)
    assert doc["formula"] == args[0]
    assert doc["value"] == pytest.approx(value, rel=1e-9)
    assert shown in doc["display"]
    core = get(args[0]).solution(**doc["inputs"])  # formula, substitution, result: inside the derivation if taught
    i = doc["steps"].index(core[0])
    assert doc["steps"][i:i + 2] == core[:2] and core[2] in doc["steps"][i + 2:]


def test_drill_calc_lists_part2_with_units(capsys):
    assert main(["calc", "--list"]) == 0
    out = capsys.readouterr().out
    assert "quant_bits_per_weight  bits [bit], group_size [count], scale_bits [bit], zero_bits [bit]  ->  bit" in out
    assert ("zero1_parallel_bytes  phi [count], tp [count], pp [count], n_dp [count], "
            "recipe [16|18|20|10_adam8bit|12_one_state, default 16]  ->  B") in out


def test_the_activation_chain_on_gpt3_is_korthikantis_table_2():
    """GPT-3 175B as Korthikanti et al. ran it (t = 8, PP = 8, s = 2048, b = 1): one GPU, TP, TP + SP, the region SP
    splits (10sbh·(1 − 1/t)), and the first 1F1B stage's P × L/P = L layers' worth."""
    from question_bank import registry

    t = registry.get("memory.activation_tp_chain")
    p = next(p for p in map(t.generate, range(100)) if p.worlds[0].model.key == "gpt3_175b")
    sbh = 2048 * 12288
    one, tp, sp, region, first = (s.value for s in p.steps)
    assert (one, tp, sp) == (sbh * (34 + 80), sbh * (10 + 3 + 10), sbh * (34 + 80) / 8)
    assert region == "norms+dropout" and first == 96 * sp  # 8 micro-batches × 12 layers
    why = "\n".join(p.steps[3].solution_lines("en"))
    assert f"= {round((tp - sp) / 1e6, 1)} MB is the LayerNorm and dropout region" in why
    assert "P × L/P = L" in "\n".join(p.steps[4].solution_lines("en"))
    assert "10sbh = 251.7 MB" in "\n".join(p.steps[1].solution_lines("en"))  # TP's floor as t grows
