"""Mistakes found by recomputing the bank, each pinned by the test that would have caught it.

(The realism fixes, MFU/HFU ceilings, fp8 norms and TP across PCIe cards, are rules in question_bank.realism,
tested in tests/unit/test_realism.py.)
"""

from __future__ import annotations

import pytest

from question_bank import registry

SEEDS = range(1, 61)


def _given(p, name):
    return next(g.value for g in p.givens if g.name == name)


def test_ddp_overlap_charges_each_bucket_its_own_ring_latency():
    """communication.ddp_overlap_chain charged 2(N−1)α once for all k buckets: each bucket is its own AllReduce,
    so T_comm = k·2(N−1)α + 2(N−1)/N·M/β (seed 1 step 3: 224 ms before, 241.8 ms right)."""
    t = registry.get("communication.ddp_overlap_chain")
    p = t.generate(1)
    assert p.steps[2].expected.value == pytest.approx(0.2418, rel=1e-3)
    for seed in SEEDS:
        p = t.generate(seed)
        n, alpha, beta, k = (_given(p, x) for x in ("n", "alpha", "beta", "buckets"))
        m = p.steps[0].expected.value
        assert p.steps[1].expected.value == pytest.approx(k * 2 * (n - 1) * alpha + 2 * (n - 1) / n * m / beta)
        assert "per bucket" in p.steps[1].prompt("en")


def test_activation_model_derives_the_models_own_layer():
    """memory.activation_model skipped the Llama per-layer derivation (SwiGLU, GQA) and its card listed a GPT-only
    mistake (34sbh) as if it were every model's."""
    from question_bank.cards import card_lines

    t = registry.get("memory.activation_model")
    seen = set()
    for seed in SEEDS:
        p = t.generate(seed)
        llama = "SwiGLU" in p.conventions("en")
        seen.add(llama)
        solution = "\n".join(p.steps[0].solution_lines("en"))
        assert ("the SwiGLU MLP keeps" in solution) == llama, seed
        assert "SwiGLU" in "\n".join(p.steps[0].solution_lines("zh")) or not llama, seed
    assert seen == {True, False}
    card = "\n".join(card_lines(t, "en"))
    assert "kept only a GPT-style layer's 34sbh term" in card
    assert "used the GPT-layer formula 34sbh + 5as²b" in card  # the Llama layer's own mistakes are on its card too
