"""The hardware and model catalogues: sane figures, citations, real configs."""

import pytest

from engine import formulas
from engine.units import fmt_number
from question_bank import hardware, models
from question_bank.hardware import GPUS, SEED_TABLE, TFLOPS
from question_bank.models import MODELS


@pytest.mark.parametrize("gpu", GPUS, ids=lambda g: g.key)
def test_gpu_figures_are_sane(gpu):
    assert 16e9 <= gpu.memory <= 256e9
    assert 0.5e12 <= gpu.bandwidth <= 10e12
    assert 10 * TFLOPS <= gpu.fp32 < gpu.fp16 <= 3000 * TFLOPS
    if gpu.bf16 is not None:
        assert gpu.bf16 == gpu.fp16
    if gpu.fp8 is not None:
        assert gpu.fp8 == pytest.approx(2 * gpu.fp16, rel=0.02)  # dense fp8 is twice dense 16-bit
    # ridge points of 16-bit tensor cores are in the hundreds of FLOP/B (R§6.4)
    assert 100 <= gpu.ridge("fp16") <= 500


@pytest.mark.parametrize("gpu", GPUS, ids=lambda g: g.key)
def test_gpu_cites_a_datasheet(gpu):
    assert "datasheet" in gpu.source.lower() or "data sheet" in gpu.source.lower()
    assert "https://" in gpu.source


def test_required_gpus_and_known_figures():
    g = hardware.get
    assert g("v100").fp16 == 125e12 and g("v100").bf16 is None and g("v100").fp32 == 15.7e12
    assert g("a100_40").bandwidth == 1555e9 and g("a100_80").bandwidth == 2039e9
    assert g("h100_sxm").peak("bf16") == 989e12 and g("h100_sxm").peak("fp8") == 1979e12
    assert g("h100_pcie").peak("bf16") == 756e12 and g("h100_pcie").bandwidth == 2e12
    assert g("h200").memory == 141e9 and g("h200").bandwidth == 4.8e12
    assert g("b200").peak("bf16") == 2250e12 and g("b200").peak("fp8") == 4500e12
    assert g("l40s").memory_type == "GDDR6" and g("l40s").bandwidth == 864e9
    assert g("mi300x").memory == 192e9 and g("mi300x").peak("fp32") == 163.4e12


def test_peak_rejects_unsupported_precision_with_a_message():
    with pytest.raises(ValueError, match="no fp8"):
        hardware.get("a100_80").peak("fp8")
    with pytest.raises(ValueError, match="unknown precision"):
        hardware.get("h100_sxm").peak("fp64")
    assert hardware.get("v100").dtypes == ("fp16", "fp32")
    assert hardware.V100 not in hardware.with_dtype("bf16")


def test_seed_table_reproduces_the_cheat_sheet_ridges():
    ridge = formulas.get("ridge_point")
    for row in SEED_TABLE:
        value = ridge.evaluate(peak_flops=row.peak, bandwidth=row.bandwidth)
        assert float(fmt_number(value, 4)) == row.ridge, row.name  # rounded half-up, as on paper
        assert row.gpu in hardware.BY_KEY


def test_each_seed_row_is_quoted_at_the_precision_its_gpu_has():
    for row in SEED_TABLE:  # the seed's header says BF16 for every row; the V100's 125 TFLOPS is fp16
        assert hardware.get(row.gpu).peak(row.dtype) == row.peak, row.name
    assert next(r for r in SEED_TABLE if r.name == "V100").dtype == "fp16"


@pytest.mark.parametrize("tid", ["roofline.ridge_point", "roofline.critical_batch"])
def test_the_cheat_sheet_v100_is_never_taught_as_bf16(tid):
    from tests import problems

    seen = 0
    for seed in range(400):
        p = problems.problem(tid, seed)  # the bank's shared problems (tests/problems.py): seeds 0-40 made already
        shown = {g.name: g.display for g in p.givens}
        if not next(iter(shown.values())).startswith("V100 (cheat-sheet figures)"):
            continue
        seen += 1
        assert shown["dtype"] == "fp16" and "bf16" not in shown.get("weights", "")
        assert all("bf16" not in g.label("en") for g in p.givens)
        assert "but the V100's figure is fp16" in p.steps[0].prompt("en")
        assert "V100 的数据是 fp16" in p.steps[0].prompt("zh")
    assert seen >= 3


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.key)
def test_model_configs_are_consistent(model):
    assert model.n_heads % model.n_kv_heads == 0
    assert model.layers > 0 and model.vocab > 30000 and model.params > 1e9
    assert "arxiv" in model.source.lower() or "huggingface.co" in model.source
    assert model.n_heads * model.d_head == model.d_model  # Falcon-7B too: 71 heads x 64 = 4544


def test_attention_layouts_follow_real_head_counts():
    assert models.get("llama2_7b").attention == "MHA"
    assert models.get("llama2_70b").attention == "GQA"
    assert models.get("falcon_40b").attention == "GQA"  # the seed says MQA; the config has 8 KV heads
    assert models.get("falcon_7b").attention == "MQA"
    assert models.get("gpt3_175b").attention == "MHA"
    assert {m.key for m in models.MODELS if m.attention == "MQA"} == {"falcon_7b"}


@pytest.mark.parametrize("model", [m for m in MODELS if m.llama_style], ids=lambda m: m.key)
def test_param_count_formula_reproduces_published_counts(model):
    estimate = formulas.get("param_count").evaluate(**model.param_inputs())
    assert estimate == pytest.approx(model.params, rel=0.02)


def test_llama_style_models_are_the_dense_gated_ones():
    keys = {m.key for m in MODELS if m.llama_style}
    assert keys == {"llama2_7b", "llama2_13b", "llama2_70b", "llama3_8b", "llama3_70b", "llama3_405b", "mistral_7b"}
    mixtral = models.get("mixtral_8x7b")
    assert mixtral.is_moe and mixtral.top_k == 2 and mixtral.active_params < mixtral.params


def test_unknown_keys_name_the_choices():
    with pytest.raises(KeyError, match="h100_sxm"):
        hardware.get("h1000")
    with pytest.raises(KeyError, match="llama2_7b"):
        models.get("llama-9")


# Figures checked against the cited datasheets (dense = half the "with sparsity" figure).
DATASHEET = {
    #            memory GB, bandwidth GB/s, bf16 TFLOPS, fp8 TFLOPS, fp32 TFLOPS
    "v100": (32, 900, None, None, 15.7),
    "a100_40": (40, 1555, 312, None, 19.5),
    "a100_80": (80, 2039, 312, None, 19.5),
    "h100_sxm": (80, 3350, 989, 1979, 67),
    "h100_pcie": (80, 2000, 756, 1513, 51),
    "h200": (141, 4800, 989, 1979, 67),
    "b200": (180, 8000, 2250, 4500, 75),
    "l40s": (48, 864, 362.05, 733, 91.6),
    "mi300x": (192, 5300, 1307.4, 2614.9, 163.4),
}


@pytest.mark.parametrize("key", DATASHEET)
def test_every_required_gpu_has_its_datasheet_figures(key):
    memory, bandwidth, bf16, fp8, fp32 = DATASHEET[key]
    gpu = hardware.get(key)
    assert gpu.memory == pytest.approx(memory * 1e9)
    assert gpu.bandwidth == pytest.approx(bandwidth * 1e9)
    assert gpu.bf16 == (None if bf16 is None else pytest.approx(bf16 * TFLOPS))
    assert gpu.fp8 == (None if fp8 is None else pytest.approx(fp8 * TFLOPS))
    assert gpu.fp32 == pytest.approx(fp32 * TFLOPS)
    assert set(DATASHEET) == set(hardware.BY_KEY)


# Hugging Face config.json / paper values: layers, hidden, heads, KV heads, head dim, FFN, vocab.
CONFIGS = {
    "llama2_7b": (32, 4096, 32, 32, 128, 11008, 32000),
    "llama2_13b": (40, 5120, 40, 40, 128, 13824, 32000),
    "llama2_70b": (80, 8192, 64, 8, 128, 28672, 32000),
    "llama3_8b": (32, 4096, 32, 8, 128, 14336, 128256),
    "llama3_70b": (80, 8192, 64, 8, 128, 28672, 128256),
    "llama3_405b": (126, 16384, 128, 8, 128, 53248, 128256),
    "mistral_7b": (32, 4096, 32, 8, 128, 14336, 32000),
    "mixtral_8x7b": (32, 4096, 32, 8, 128, 14336, 32000),
    "gpt3_175b": (96, 12288, 96, 96, 128, 49152, 50257),
    "falcon_40b": (60, 8192, 128, 8, 64, 32768, 65024),
    "falcon_7b": (32, 4544, 71, 1, 64, 18176, 65024),
}


@pytest.mark.parametrize("key", CONFIGS)
def test_every_required_model_has_its_real_config(key):
    m = models.get(key)
    assert (m.layers, m.d_model, m.n_heads, m.n_kv_heads, m.d_head, m.ffn, m.vocab) == CONFIGS[key]
    assert set(CONFIGS) == set(models.BY_KEY)


def _exact_params(m):
    """Every matrix and RMSNorm of a gated, untied decoder (MoE: all experts plus the router)."""
    attention = m.d_model * m.d_head * (2 * m.n_heads + 2 * m.n_kv_heads)
    mlp = m.experts * 3 * m.d_model * m.ffn + (m.d_model * m.experts if m.is_moe else 0)
    return m.layers * (attention + mlp + 2 * m.d_model) + 2 * m.vocab * m.d_model + m.d_model


@pytest.mark.parametrize("model", [m for m in MODELS if m.gated], ids=lambda m: m.key)
def test_gated_models_params_are_the_exact_config_totals(model):
    assert _exact_params(model) == model.params


def test_mixtral_active_params_match_top_2_routing():
    m = models.get("mixtral_8x7b")
    active = _exact_params(m) - (m.experts - m.top_k) * m.layers * 3 * m.d_model * m.ffn
    assert active == pytest.approx(m.active_params, rel=0.005)  # 12.88e9 vs the published 12.9B


# --------------------------------------------------------------------------- realism facts


@pytest.mark.parametrize("gpu", GPUS, ids=lambda g: g.key)
def test_every_gpu_lists_the_precisions_it_computes_in(gpu):
    assert gpu.precisions and set(gpu.precisions) <= set(hardware.PRECISIONS) and "fp32" in gpu.precisions
    assert "fp16" in gpu.precisions
    # a peak figure exactly where the precision is listed
    assert (gpu.bf16 is not None) == gpu.supports("bf16") and (gpu.fp8 is not None) == gpu.supports("fp8")
    assert gpu.sixteen == ("bf16" if gpu.supports("bf16") else "fp16")


def test_which_chip_has_which_precision():
    has = {g.key: set(g.precisions) for g in GPUS}
    assert has["v100"] == {"fp32", "fp16"}  # Volta: fp16 tensor cores only
    for key in ("a100_40", "a100_80"):
        assert {"tf32", "bf16", "int8"} <= has[key] and "fp8" not in has[key]  # Ampere: bf16, no fp8
    for key in ("h100_sxm", "h100_pcie", "h200", "b200", "l40s", "mi300x"):
        assert {"bf16", "fp8"} <= has[key], key  # fp8 from Ada / Hopper on; MI300X has both
    v100 = hardware.get("v100")
    assert v100.stores("int4") and not v100.stores("bf16") and not hardware.get("a100_80").stores("fp8")


def test_models_record_context_and_moe_parameters():
    assert models.get("llama2_7b").context == 4096 and models.get("falcon_40b").context == 2048
    assert models.get("llama3_8b").context == 8192 and models.get("gpt3_175b").context == 2048
    mixtral = models.get("mixtral_8x7b")
    assert mixtral.total_params == mixtral.params == pytest.approx(46.7e9, rel=0.001)
    assert mixtral.active_params == mixtral.flop_params == 12.9e9
    dense = models.get("llama3_70b")
    assert dense.flop_params == dense.total_params == dense.params


def test_models_record_their_layer():
    llama, falcon, gpt3 = models.get("llama2_7b"), models.get("falcon_40b"), models.get("gpt3_175b")
    assert llama.kernels >= {"RMSNorm", "SiLU", "multiply"} and not llama.kernels & {"LayerNorm", "GELU", "bias add",
                                                                                    "dropout"}
    assert falcon.kernels >= {"LayerNorm", "GELU"} and not falcon.kernels & {"SiLU", "bias add", "dropout"}
    assert gpt3.kernels >= {"LayerNorm", "GELU", "bias add", "dropout"}
    # Korthikanti's layer: Falcon has the 4h GELU MLP, but no dropout and grouped (40B) or one (7B) KV heads
    assert {m.key for m in MODELS if m.gpt_style} == {"gpt3_175b"}
    assert not falcon.dropout and falcon.n_kv_heads < falcon.n_heads


@pytest.mark.parametrize("run", models.MEGATRON_RUNS, ids=lambda r: r[0].key)
def test_the_megatron_gpt_configurations_are_korthikantis_table_3(run):
    """Korthikanti et al. 2022, Table 3: heads, hidden size, layers, TP, PP, micro-batch (s = 2048)."""
    m, t, p, b = run
    table = {"megatron_gpt_22b": (64, 6144, 48, 8, 1, 4), "gpt3_175b": (96, 12288, 96, 8, 8, 1),
             "mt_nlg_530b": (128, 20480, 105, 8, 35, 1), "megatron_gpt_1t": (160, 25600, 128, 8, 64, 1)}
    assert (m.n_heads, m.d_model, m.layers, t, p, b) == table[m.key]
    assert m.gpt_style and m.context == 2048 and m.layers % p == 0 and m.n_heads % t == 0
    if m.key != "gpt3_175b":  # Narayanan et al. 2021, Table 1: 529.6B and 1008.0B for the same shapes
        assert round(m.params / 1e9, 1) == {"megatron_gpt_22b": 22.1, "mt_nlg_530b": 529.6,
                                            "megatron_gpt_1t": 1008.0}[m.key]
    assert not set(models.MEGATRON_GPT) & set(MODELS)  # the templates that draw from MODELS are unchanged
