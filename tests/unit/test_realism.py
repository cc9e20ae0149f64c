"""Realism: every template, at every seed of the lane, describes a world that could exist.

The property: :func:`question_bank.realism.check` finds nothing in any generated problem.
Each rule also has a problem built by hand that it must catch (and a near miss it must
let through), so a rule that silently stops checking fails here.

Seeds are a plain loop, not hypothesis: the lane's fixed seeds per template (tests/problems.py: 0-40 in
``make test``, 0-199 in ``make test-deep``), each problem made once per worker and shared with the other
property tests (the check itself is a few microseconds).
"""

from __future__ import annotations

import pytest

from question_bank import hardware, models, realism, registry
from question_bank.spec import Ask, Spec, World
from question_bank.template import build_problem
from tests import problems

SEEDS = range(200)  # the scans of one template for the cases an issue named
TEMPLATES = registry.all_templates()


@pytest.mark.parametrize("tid", [t.id for t in TEMPLATES])
def test_every_problem_describes_a_world_that_could_exist(tid):
    found = []
    for p in problems.each(tid):
        found += [f"seed {p.seed}: {v}" for v in realism.check(p)]
    assert not found, f"{tid}: {len(found)} unrealistic problems, e.g.\n" + "\n".join(found[:5])


# --------------------------------------------------------------------------- #
# Each rule catches its case: problems built by hand


def _problem(world=None, *, prompt: str = "What is it?", formula: str = "weights_bytes", inputs=None):
    """A one-step problem around ``world`` (a template that never registers)."""
    t = registry.get("inference.weights_bytes")
    ask = Ask(prompt_en=prompt, prompt_zh="是多少？", formula=formula,
              inputs=inputs if inputs is not None else {"phi": 7e9, "bytes_per_param": 2})
    return build_problem(t, 0, Spec(asks=(ask,), world=world))


def _rules(p) -> set[str]:
    return {v.split(":")[0] for v in realism.check(p)}


L40S, V100, A100, H100, B200 = (hardware.get(k) for k in ("l40s", "v100", "a100_80", "h100_sxm", "b200"))
LLAMA2_7B, LLAMA3_70B, GPT3, MIXTRAL = (models.get(k) for k in ("llama2_7b", "llama3_70b", "gpt3_175b",
                                                                 "mixtral_8x7b"))


def test_declared_catches_a_named_model_or_gpu_without_a_world():
    p = _problem(prompt="Llama-3-70B is served on one L40S. What is it?")
    found = realism.check(p)
    assert any("model Llama-3-70B" in v for v in found) and any("GPU L40S" in v for v in found)
    assert _rules(p) == {"declared"}
    assert not realism.check(_problem(World(model=LLAMA3_70B, gpu=L40S),
                                      prompt="Llama-3-70B is served on one L40S. What is it?"))
    # "Llama-2-7B" inside "Llama-2-70B" is not a mention of the 7B
    assert not realism.check(_problem(World(model=models.get("llama2_70b")), prompt="Llama-2-70B: what is it?"))


def test_fits_catches_a_model_bigger_than_its_gpu():
    world = World(model=LLAMA3_70B, gpu=L40S, precision="bf16", holds=("weights",))
    found = realism.check(_problem(world))
    assert _rules(_problem(world)) == {"fits"}
    assert "Llama-3-70B" in found[0] and "L40S holds 48 GB" in found[0] and "World.n_gpus" in found[0]
    # the tensor parallelism that makes it fit, or a problem that asks whether it fits
    assert not realism.check(_problem(world._replace(n_gpus=4, tp=4)))
    assert not realism.check(_problem(world._replace(fit_is_asked=True)))


def test_fits_counts_the_kv_cache_and_the_training_state():
    serving = World(model=LLAMA2_7B, gpu=H100, precision="bf16", seq=4096, batch=64, holds=("weights", "kv"))
    assert _rules(_problem(serving)) == {"fits"}  # 13.5 GB of weights + 64 × 2.1 GB of KV cache
    assert not realism.check(_problem(serving._replace(batch=16)))
    # ZeRO-3 over 8 GPUs: 16 × 405B / 8 = 811 GB per GPU; with no GPU named, not even the largest holds it
    zero = World(model=models.get("llama3_405b"), holds=("zero3",), n_dp=8)
    found = realism.check(_problem(zero))
    assert _rules(_problem(zero)) == {"fits"} and "largest in the catalogue" in found[0]
    assert not realism.check(_problem(zero._replace(n_dp=512)))
    assert _rules(_problem(World(phi=30e9, holds=("train",)))) == {"fits"}  # plain DDP of 30B: 480 GB per GPU


def test_precision_catches_a_format_the_chip_lacks():
    assert _rules(_problem(World(gpu=V100, precision="bf16"))) == {"precision"}
    assert _rules(_problem(World(gpu=A100, precision="fp8"))) == {"precision"}
    assert _rules(_problem(World(gpu=A100, precision="bf16", weights="fp8"))) == {"precision"}
    assert _rules(_problem(World(gpu=V100, precision="fp16", kv="bf16"))) == {"precision"}
    assert "V100 SXM2 32GB has no bf16" in realism.check(_problem(World(gpu=V100, precision="bf16")))[0]
    # what the chips do have: fp16 on V100, fp8 from Ada/Hopper on (MI300X too), weight-only int4 anywhere
    for gpu, dtype in ((V100, "fp16"), (H100, "fp8"), (L40S, "fp8"), (hardware.get("mi300x"), "fp8"), (B200, "fp8")):
        assert not realism.check(_problem(World(gpu=gpu, precision=dtype)))
    assert not realism.check(_problem(World(gpu=V100, precision="fp16", weights="int4")))


def test_context_catches_a_sequence_beyond_the_trained_context():
    world = World(model=LLAMA2_7B, seq=8192)
    found = realism.check(_problem(world))
    assert _rules(_problem(world)) == {"context"} and "4,096-token context" in found[0]
    assert _rules(_problem(World(model=models.get("falcon_40b"), seq=4096))) == {"context"}
    assert not realism.check(_problem(world._replace(extended_context=True)))
    assert not realism.check(_problem(world._replace(seq=4096)))


ACT = {"s": 2048, "b": 1, "h": 4096, "a": 32}


def test_architecture_catches_the_gpt_formula_on_a_llama_layer():
    p = _problem(World(model=LLAMA2_7B), formula="activation_bytes_layer", inputs=ACT)
    assert _rules(p) == {"architecture"} and "SwiGLU" in realism.check(p)[0]
    gpt = dict(ACT, h=12288, a=96)
    assert not realism.check(_problem(World(model=GPT3), formula="activation_bytes_layer", inputs=gpt))
    swiglu = dict(ACT, n_kv_heads=32, ffn=11008)
    assert not realism.check(_problem(World(model=LLAMA2_7B), formula="activation_bytes_layer_swiglu", inputs=swiglu))
    assert _rules(_problem(World(model=GPT3), formula="activation_bytes_layer_swiglu", inputs=swiglu)) == {
        "architecture"}
    assert _rules(_problem(None, formula="activation_bytes_selective", inputs={"s": 2048, "b": 1, "h": 4096})) == {
        "architecture"}
    # Falcon's 4h GELU MLP is not enough: no dropout (no masks, no dropped-out scores) and grouped KV heads
    falcon = _problem(World(model=models.get("falcon_40b")), formula="activation_bytes_layer",
                      inputs=dict(ACT, h=8192, a=128))
    assert _rules(falcon) == {"architecture"} and "8 KV heads of 128 and no dropout" in realism.check(falcon)[0]


@pytest.mark.parametrize("formula", ["activation_bytes_layer_tp", "activation_bytes_layer_tp_sp"])
def test_architecture_holds_korthikantis_table_2_to_gpt_layers_too(formula):
    """The TP and TP + SP splits of 34sbh + 5as²b are Korthikanti's count too: GPT-style layers only."""
    tp = dict(ACT, t=8)
    p = _problem(World(model=LLAMA2_7B), formula=formula, inputs=tp)
    assert _rules(p) == {"architecture"} and formula in realism.check(p)[0] and "SwiGLU" in realism.check(p)[0]
    assert _rules(_problem(None, formula=formula, inputs=tp)) == {"architecture"}
    assert not realism.check(_problem(World(model=GPT3, seq=2048), formula=formula, inputs=dict(tp, h=12288, a=96)))
    for m, t, pp, b in models.MEGATRON_RUNS:  # Korthikanti's own configurations (Table 3)
        inputs = {"s": 2048, "b": b, "h": m.d_model, "a": m.n_heads, "t": t}
        world = World(model=m, seq=2048, batch=b, tp=t, pp=pp, n_gpus=t * pp, precision="bf16", holds=("train",),
                      gpu=A100)
        assert not realism.check(_problem(world, formula=formula, inputs=inputs)), m.name
    assert _rules(_problem(World(model=models.MT_NLG_530B, seq=4096), formula=formula,
                           inputs=dict(tp, s=4096, h=20480, a=128))) == {"context"}  # trained on 2048 tokens


def test_architecture_catches_kernels_the_model_does_not_run():
    llama = World(model=LLAMA2_7B, kernels=("bias add", "GELU", "dropout"))
    found = realism.check(_problem(llama))
    assert _rules(_problem(llama)) == {"architecture"}
    assert "bias add, GELU, dropout" in found[0] and "RMSNorm" in found[0]
    assert _rules(_problem(World(model=models.get("falcon_40b"), kernels=("residual add", "RMSNorm")))) == {
        "architecture"}
    assert not realism.check(_problem(llama._replace(kernels=("residual add", "RMSNorm", "SiLU", "multiply"))))
    assert not realism.check(_problem(World(model=GPT3, kernels=("bias add", "GELU", "dropout"))))


def test_moe_active_catches_flops_from_the_total_parameter_count():
    total = _problem(World(model=MIXTRAL), prompt="Mixtral-8x7B: active parameters?", formula="forward_flops_per_token",
                     inputs={"phi": 46.7e9})
    assert _rules(total) == {"moe_active"} and "12.9B" in realism.check(total)[0]
    active = {"phi": 12.9e9}
    assert not realism.check(_problem(World(model=MIXTRAL), prompt="Mixtral-8x7B: 12.9B active parameters?",
                                      formula="forward_flops_per_token", inputs=active))
    unsaid = _problem(World(model=MIXTRAL), prompt="Mixtral-8x7B, Φ = 12.9B?", formula="forward_flops_per_token",
                      inputs=active)
    assert _rules(unsaid) == {"moe_active"} and "'active'" in realism.check(unsaid)[0]
    # memory counts every expert
    assert _rules(_problem(World(model=MIXTRAL), inputs={"phi": 12.9e9, "bytes_per_param": 2})) == {"moe_active"}
    assert not realism.check(_problem(World(model=MIXTRAL), inputs={"phi": 46.7e9, "bytes_per_param": 2}))


def test_precision_catches_a_norm_in_fp8():
    """Norms, softmax and elementwise ops run in 16 bits: concepts.why_norm_is_slow never runs them "in fp8"."""
    assert _rules(_problem(World(gpu=H100, precision="fp8", row_ops=("LayerNorm",)))) == {"precision"}
    assert not realism.check(_problem(World(gpu=H100, precision="bf16", row_ops=("LayerNorm",))))
    assert not realism.check(_problem(World(gpu=H100, precision="fp8")))  # a GEMM in fp8 is fine
    for seed in SEEDS:
        p = problems.problem("concepts.why_norm_is_slow", seed)
        question = p.steps[0].prompt("en")
        if any(op in question for op in ("LayerNorm", "Softmax", "RMSNorm", "GELU", "residual add")):
            assert "fp8" not in question, seed


def test_utilisation_catches_an_mfu_or_hfu_no_run_reports():
    """No training run reports an MFU above MAX_MFU (50 %) or an HFU above MAX_HFU: mfu.hfu and
    mfu.utilisation_chain stay below it at every seed; a prefill's MFU is held to the same 50 %."""
    inputs = {"tokens_per_s": 3.0e6, "phi": 7e9, "n_gpus": 1024, "peak_flops": 989e12}  # MFU 12.4 %, HFU 16.6 %
    assert not realism.check(_problem(formula="mfu", inputs=inputs))
    assert _rules(_problem(formula="mfu", inputs=inputs | {"tokens_per_s": 1.5e7})) == {"utilisation"}  # 62 %
    assert _rules(_problem(formula="hfu", inputs=inputs | {"tokens_per_s": 1.2e7})) == {"utilisation"}  # 66 %
    assert not realism.check(_problem(formula="hfu", inputs=inputs | {"tokens_per_s": 1.1e7}))  # 60.8 %
    days = {"phi": 7e9, "tokens": 1e12, "n_gpus": 1024, "peak_flops": 989e12}
    assert _rules(_problem(formula="train_time", inputs=days | {"mfu": 0.55})) == {"utilisation"}
    assert not realism.check(_problem(formula="train_time", inputs=days | {"mfu": 0.5}))
    # every MFU the bank states, a prefill's too, is at most 50 %
    prefill = {"phi": 7e9, "prompt_tokens": 2000, "peak_flops": 989e12}
    assert not realism.check(_problem(formula="ttft", inputs=prefill | {"mfu": 0.5}))
    assert _rules(_problem(formula="ttft", inputs=prefill | {"mfu": 0.55})) == {"utilisation"}
    floor = prefill | {"bandwidth": 3.35e12, "bytes_per_param": 2}
    assert _rules(_problem(formula="ttft_floor", inputs=floor | {"mfu": 0.6})) == {"utilisation"}
    for tid in ("mfu.hfu", "mfu.utilisation_chain"):
        for seed in SEEDS:
            p = problems.problem(tid, seed)
            hfu = next(s for s in p.steps if s.formula == "hfu")
            assert hfu.expected.value <= realism.MAX_HFU, (tid, seed)


def test_scale_up_catches_tensor_parallelism_across_pcie_cards():
    """No 8-way tensor parallelism across H100 PCIe cards (NVLink bridges join only pairs)."""
    pcie = hardware.get("h100_pcie")
    assert _rules(_problem(World(gpu=pcie, tp=8, n_gpus=8))) == {"scale_up"}
    assert not realism.check(_problem(World(gpu=pcie, tp=2, n_gpus=2)))
    assert not realism.check(_problem(World(gpu=H100, tp=8, n_gpus=8)))


def test_stall_catches_a_checkpoint_written_in_a_blink():
    """14Φ over the whole cluster's storage took 0.4-4.7 s; a job's own file system takes 30-120 s."""
    write = {"checkpoint_bytes": 2.45e12, "write_bandwidth": 2e12}  # 175B at Meta's whole 2 TB/s: 1.2 s
    assert _rules(_problem(formula="checkpoint_write_time", inputs=write)) == {"stall"}
    assert not realism.check(_problem(formula="checkpoint_write_time", inputs=write | {"write_bandwidth": 75e9}))
    waste = {"interval": 3600.0, "mtbf": 3 * 3600.0}
    assert _rules(_problem(formula="checkpoint_waste", inputs=waste | {"checkpoint_time": 4.0})) == {"stall"}
    for seed in SEEDS[:40]:
        stall = problems.problem("reliability.checkpoint_chain", seed).steps[1].expected.value
        assert realism.MIN_STALL_S <= stall <= 120, (seed, stall)


def test_ranges_catches_a_draw_outside_the_2026_ranges():
    """Queueing at 99 % utilisation or a 10 ms service, a PUE of 1.6, an owned GPU at 30 % utilisation: outside the
    spec's 2026 ranges for these families; their edges pass."""
    queue = {"utilisation": 0.9, "service_time": 0.2}
    assert not realism.check(_problem(formula="mm1_wait", inputs=queue))
    assert not realism.check(_problem(formula="mm1_wait", inputs={"utilisation": 0.95, "service_time": 5.0}))
    assert _rules(_problem(formula="mm1_wait", inputs=queue | {"utilisation": 0.99})) == {"ranges"}
    assert _rules(_problem(formula="md1_wait", inputs=queue | {"service_time": 0.01})) == {"ranges"}
    site = {"facility_power": 100e6, "it_power_per_gpu": 1300, "pue": 1.3}
    assert not realism.check(_problem(formula="gpus_for_power", inputs=site))
    assert _rules(_problem(formula="gpus_for_power", inputs=site | {"pue": 1.6})) == {"ranges"}
    own = {"capex_per_gpu": 30e3, "years": 4, "utilisation": 0.8, "power_w": 1275, "pue": 1.3, "price_per_kwh": 0.1}
    assert not realism.check(_problem(formula="owned_gpu_hour_cost", inputs=own))
    assert _rules(_problem(formula="owned_gpu_hour_cost", inputs=own | {"utilisation": 0.3})) == {"ranges"}
    assert _rules(_problem(formula="utilisation", inputs={"arrival_rate": 2, "service_time": 0.1})) == {"ranges"}


def test_ranges_hold_the_fabric_data_parallel_quantisation_and_pool_families():
    """A 1,024-port switch, a 16-GPU NVLink node, int1 weights, a 10 s prefill, 20 req/s: outside what real switches,
    nodes, published schemes and the Azure trace give; the ranges' edges pass."""
    cases = (("fat_tree_hosts", {"radix": 512, "tiers": 3}, {"radix": 1024}),
             ("dp_min_batch_per_device", {"peak_flops": 2.5e15, "link_bandwidth": 1e11, "bytes_per_param": 4,
                                          "gpus_per_node": 72}, {"gpus_per_node": 16 * 9}),
             ("quant_bits_per_weight", {"bits": 2, "group_size": 128, "scale_bits": 16, "zero_bits": 2}, {"bits": 1}),
             ("prefill_instances", {"arrival_rate": 9.75, "prefill_time": 5.0, "utilisation": 0.5},
              {"prefill_time": 10.0}),
             ("decode_instances", {"arrival_rate": 0.12, "output_tokens": 424, "tokens_per_s_per_instance": 100},
              {"arrival_rate": 20}))
    for formula, edge, outside in cases:
        assert not realism.check(_problem(formula=formula, inputs=edge)), formula
        assert _rules(_problem(formula=formula, inputs=edge | outside)) == {"ranges"}, formula


def test_every_rule_is_tested_here():
    import sys

    tests = " ".join(n for n in dir(sys.modules[__name__]) if n.startswith("test_"))
    assert all(f"test_{rule}_catches" in tests for rule in realism.RULES), sorted(realism.RULES)


def test_the_issue_cases_are_gone():
    """Known unrealistic scenarios, by name: none of them is generated."""
    seen = []
    for tid in ("roofline.chain_batching", "concepts.phase_bound", "concepts.memory_bound_fix"):
        for seed in SEEDS:
            p = problems.problem(tid, seed)
            for w in p.worlds:
                if w.model is not None and w.gpu is not None:
                    seen.append((tid, w.model.key, w.gpu.key, w.precision))
    assert ("roofline.chain_batching", "llama3_70b", "l40s", "bf16") not in seen
    assert not [s for s in seen if s[1:3] in (("llama2_70b", "a100_40"), ("llama3_405b", "b200"),
                                              ("gpt3_175b", "h100_sxm"))]
    flops = [problems.problem("mfu.forward_flops", seed) for seed in SEEDS]
    mixtral = [p for p in flops if "Mixtral" in p.prompt("en")]
    assert mixtral and {p.steps[0].expected.value for p in mixtral} == {25.8e9}


def test_batch_catches_a_training_log_no_run_reports():
    """A training log read for its MFU has at least 1,024 tokens per GPU per step (its MFU at most 50 %)."""
    log = {"phi": 7e10, "global_batch": 1024, "s": 4096, "n_gpus": 1024, "peak_flops": 989e12}  # 4,096 tokens per GPU
    assert not realism.check(_problem(formula="mfu_from_step_time", inputs=log | {"step_time": 5.0}))  # 35 %
    assert _rules(_problem(formula="mfu_from_step_time", inputs=log | {"step_time": 3.0})) == {"utilisation"}  # 58 %
    few = log | {"global_batch": 64, "step_time": 0.3}  # 256 tokens per GPU per step, 36 %
    assert _rules(_problem(formula="mfu_from_step_time", inputs=few)) == {"batch"}


def test_duration_catches_a_run_longer_than_six_months():
    """A run's days, or its GPU-hours over the GPUs its world declares, stay within ~6 months."""
    run = {"phi": 4.05e11, "tokens": 1.5e13, "peak_flops": 989e12, "mfu": 0.5}
    assert _rules(_problem(formula="train_time", inputs=run | {"n_gpus": 2048})) == {"duration"}  # 417 days
    assert not realism.check(_problem(formula="train_time", inputs=run | {"n_gpus": 8192}))  # 104 days
    hours = {"flops": 6 * 4.05e11 * 1.5e13, "peak_flops": 989e12, "mfu": 0.5}
    assert _rules(_problem(World(n_gpus=2048), formula="gpu_hours", inputs=hours)) == {"duration"}
    assert not realism.check(_problem(World(n_gpus=8192), formula="gpu_hours", inputs=hours))


# the seeds the named cases are scanned at: cheap in make test, all forty recorded ones in the deep lane
CASE_SEEDS = range(1, 41) if problems.lane == "deep" else range(1, 16)


def test_network_templates_charge_the_catalogue_s_nic():
    """Each GPU's NIC is its system's (400G on Hopper and B200, 800G on B300), and dp_min_batch varies at seeds 1-3."""
    for tid, bw in (("parallelism.dp_min_batch", "link_bandwidth"), ("communication.hierarchical_allreduce",
                                                                     "inter_bandwidth")):
        for seed in CASE_SEEDS:
            p = problems.problem(tid, seed)
            gpu = next(w.gpu for w in p.worlds if w.gpu is not None)
            assert p.steps[0].inputs[bw] == gpu.scale_out_nic, (tid, seed, gpu.key)
    assert len({problems.problem("parallelism.dp_min_batch", s).steps[0].expected.value for s in (1, 2, 3)}) == 3
    assert len({problems.problem("inference.rollout_tokens", s).steps[0].expected.value for s in (1, 2, 3)}) == 3


@pytest.mark.parametrize("chip", ["l40s", "h100_pcie"])
def test_decode_weights_fit_a_chosen_card(chip):
    """decode_tps_given draws weights and a KV cache that fit the card, the learner's chosen one too."""
    t = registry.get("inference.decode_tps_given")
    gpu = hardware.get(chip)
    for seed in CASE_SEEDS:
        v = t.generate(seed, hardware=chip).steps[0].inputs
        assert v["weight_bytes"] + v["kv_bytes"] <= gpu.memory, (chip, seed)
