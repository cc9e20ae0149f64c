"""The MoE catalogue (question_bank.models.MOE_MODELS): totals counted from each config, active parameters
close to the published ones, and the Φ_dense / Φ_expert split the MoE templates give."""

import pytest

from question_bank import models
from question_bank.models import MOE_MODELS


def _counted(m) -> float:
    """Every matrix and norm of a GQA MoE decoder counted from its config (Qwen3 adds a q/k RMSNorm per layer)."""
    attention = m.d_model * m.d_head * (2 * m.n_heads + 2 * m.n_kv_heads) + (2 * m.d_head if "qwen3" in m.key else 0)
    mlp = m.experts * 3 * m.d_model * m.ffn + m.d_model * m.experts
    return m.layers * (attention + mlp + 2 * m.d_model) + 2 * m.vocab * m.d_model + m.d_model


def _deepseek_v3_counted() -> float:
    """DeepSeek-V3 from its config: MLA projections, 3 dense layers, 58 MoE layers of 256 routed + 1 shared."""
    d, L, moe, f = 7168, 61, 58, 2048
    mla = d * 1536 + 1536 + 1536 * 128 * 192 + d * (512 + 64) + 512 + 512 * 128 * 256 + 128 * 128 * d
    expert = 3 * d * f
    return (L * (mla + 2 * d) + (L - moe) * 3 * d * 18432 + moe * (257 * expert + d * 256)
            + 2 * 129280 * d + d)


@pytest.mark.parametrize("m", [x for x in MOE_MODELS if not x.is_mla], ids=lambda m: m.key)
def test_gqa_moe_totals_are_the_config_counts(m):
    assert _counted(m) == m.params


def test_deepseek_v3_is_671b_with_mla():
    m = models.DEEPSEEK_V3
    assert _deepseek_v3_counted() == pytest.approx(m.params, rel=1e-3)
    assert (m.layers, m.moe_layers, m.experts, m.shared_experts, m.top_k) == (61, 58, 256, 1, 8)
    assert (m.kv_lora_rank, m.rope_dim) == (512, 64) and m.is_mla
    assert m.layers * (m.kv_lora_rank + m.rope_dim) * 2 == 70_272  # MLA cache per token in bf16


@pytest.mark.parametrize("m", MOE_MODELS, ids=lambda m: m.key)
def test_dense_plus_top_k_experts_is_the_published_active_count(m):
    assert m.dense_params + m.experts * m.expert_params == pytest.approx(m.params)
    # within 3.5 %: DeepSeek-V2 counts 21.6B from its published 236B total, and publishes 21B
    assert m.dense_params + m.top_k * m.expert_params == pytest.approx(m.active_params, rel=0.035)
    assert m.dense_params > 0 and m.expert_params > 0


def test_moe_models_stay_out_of_the_dense_templates_pool():
    assert not set(MOE_MODELS) - {models.MIXTRAL_8X7B} & set(models.MODELS)
    assert all(m.is_moe for m in MOE_MODELS)
