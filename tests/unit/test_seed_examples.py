"""Every numeric example of the two seed documents comes out of the formula catalogue.

C§ = shared/seeds/002_9821af7750ba1ae9.txt (the cheat-sheet), R§ = 000_5834da546fac1c81.txt
(the roofline article).  Figures are compared the way the seeds print them: rounded half-up
to their digits (fmt_number) or, for "≈" figures, within the grader's 5 % band.
"""

import pytest

from engine.formulas import classify_bound, get
from engine.units import fmt_number, fmt_quantity

GB = 1e9
PHI_70B = 70e9


def ev(name, **inputs):
    return get(name).evaluate(**inputs)


# --------------------------------------------------------------------------- C§1.1 static memory

def test_70b_static_memory_is_1120_gb():  # 16Φ, "70B 需要 1120 GB"
    assert ev("train_static_bytes", phi=PHI_70B) == 1120 * GB
    assert fmt_quantity(ev("train_static_bytes", phi=PHI_70B), "bytes", unit="GB") == "1120 GB"


@pytest.mark.parametrize("part, bytes_per_param, gb", [
    ("parameters fp16 2Φ", 2, 140), ("gradients fp16 2Φ", 2, 140), ("AdamW states 12Φ", 12, 840),
    ("fp32 master weights 4Φ", 4, 280), ("fp32 momentum 4Φ", 4, 280), ("fp32 variance 4Φ", 4, 280),
    ("params + grads 4Φ (二四十六)", 4, 280), ("total 16Φ", 16, 1120),
    ("with fp32 gradients 18Φ", 18, 1260), ("or 20Φ", 20, 1400),
])
def test_static_memory_parts(part, bytes_per_param, gb):
    assert ev("weights_bytes", phi=PHI_70B, bytes_per_param=bytes_per_param) == pytest.approx(gb * GB), part


def test_the_parts_are_the_misconceptions_of_the_total():
    values = {m.key: v for m, v in get("train_static_bytes").misconception_values(phi=PHI_70B)}
    assert values == pytest.approx({"weights_only": 140 * GB, "optimizer_only": 840 * GB, "no_optimizer": 280 * GB})


def test_1120_gb_needs_14_gpus_of_80_gb():  # "相当于 14 张 80GB A100/H100 显卡"
    assert ev("min_gpus", total_bytes=1120 * GB, gpu_bytes=80 * GB) == 14
    assert ev("min_gpus", total_bytes=1121 * GB, gpu_bytes=80 * GB) == 15


# --------------------------------------------------------------------------- C§1.2 ZeRO

def test_zero_stages_for_the_70b_model():
    assert ev("zero1_bytes", phi=PHI_70B, n_dp=8) == pytest.approx((4 + 12 / 8) * PHI_70B)  # 4Φ + 12Φ/N
    assert ev("zero2_bytes", phi=PHI_70B, n_dp=8) == pytest.approx((2 + 14 / 8) * PHI_70B)  # 2Φ + (2Φ+12Φ)/N
    assert ev("zero3_bytes", phi=PHI_70B, n_dp=8) == pytest.approx(2 * PHI_70B)  # 16Φ/N
    assert ev("zero3_bytes", phi=PHI_70B, n_dp=14) == pytest.approx(80 * GB)  # 1120 GB over 14 GPUs


def test_zero_asymptotes_and_savings():  # ZeRO-1 → 4Φ (saves ~75 %), ZeRO-2 → 2Φ (saves ~87.5 %)
    big = 1e12
    full = ev("train_static_bytes", phi=PHI_70B)
    z1, z2 = ev("zero1_bytes", phi=PHI_70B, n_dp=big), ev("zero2_bytes", phi=PHI_70B, n_dp=big)
    assert z1 == pytest.approx(4 * PHI_70B) and z2 == pytest.approx(2 * PHI_70B)
    assert 1 - z1 / full == pytest.approx(0.75)
    assert 1 - z2 / full == pytest.approx(0.875)
    assert ev("zero3_bytes", phi=PHI_70B, n_dp=2) == 2 * ev("zero3_bytes", phi=PHI_70B, n_dp=4)  # 严格成反比


def test_zero_stages_with_one_gpu_are_unsharded():
    for stage in ("zero1_bytes", "zero2_bytes", "zero3_bytes"):
        assert ev(stage, phi=PHI_70B, n_dp=1) == 16 * PHI_70B


# --------------------------------------------------------------------------- C§1.3 activations

def test_activation_formula_34sbh_plus_5as2b():
    s, b, h, a = 2048, 1, 4096, 32
    assert ev("activation_bytes_layer", s=s, b=b, h=h, a=a) == 34 * s * b * h + 5 * a * s * s * b
    # the constant 34 = 6 + 2 + 3 + 16 + 3 + 4 (QKV, proj, residual+dropout, MLP, GELU+dropout, norms)
    assert 6 + 2 + 3 + 16 + 3 + 4 == 34
    # and 5as²b = 4as²b (scores + softmax, fp16) + as²b (dropout mask)
    assert ev("activation_bytes_layer", s=s, b=b, h=h, a=a) - ev("activation_bytes_selective", s=s, b=b, h=h) \
        == 4 * a * s * s * b + a * s * s * b


def test_recomputation_figures():
    s, b, h = 4096, 2, 8192
    assert ev("activation_bytes_full_recompute", s=s, b=b, h=h) == 2 * s * b * h  # only the layer input kept
    assert ev("activation_bytes_selective", s=s, b=b, h=h) == 34 * s * b * h  # O(s²) part recomputed
    # full recomputation costs one more forward pass: 8Φ instead of 6Φ, +33 %
    assert ev("hfu", tokens_per_s=1, phi=1, n_gpus=1, peak_flops=1) / ev("mfu", tokens_per_s=1, phi=1, n_gpus=1,
                                                                           peak_flops=1) == pytest.approx(4 / 3)


# --------------------------------------------------------------------------- C§2 communication

def test_ring_collectives():
    m = 1 * GB
    assert ev("allreduce_bytes", m=m, n=8) == pytest.approx(2 * 7 / 8 * m)  # 2(N-1)/N M
    assert ev("allreduce_bytes", m=m, n=8) == 2 * ev("reduce_scatter_bytes", m=m, n=8)  # RS + AG
    assert ev("reduce_scatter_bytes", m=m, n=8) == ev("allgather_bytes", m=m, n=8) == ev("alltoall_bytes", m=m, n=8)
    assert ev("p2p_bytes", m=m) == m
    # "N ≥ 8 时 (N-1)/N ≈ 1，每卡通信量近似为 2M": within 12.5 % at N = 8, → 2M
    assert ev("allreduce_bytes", m=m, n=8) / (2 * m) == pytest.approx(0.875)
    assert ev("allreduce_bytes", m=m, n=10_000) == pytest.approx(2 * m, rel=1e-3)


def test_alpha_beta_times():
    m, n, alpha, beta = 1 * GB, 8, 5e-6, 100 * GB
    assert ev("allreduce_time", m=m, n=n, alpha=alpha, beta=beta) == pytest.approx(2 * 7 * alpha + 2 * 7 / 8 * m / beta)
    assert ev("reduce_scatter_time", m=m, n=n, alpha=alpha, beta=beta) == pytest.approx(7 * alpha + 7 / 8 * m / beta)
    assert ev("allgather_time", m=m, n=n, alpha=alpha, beta=beta) == ev("reduce_scatter_time", m=m, n=n, alpha=alpha,
                                                                        beta=beta)
    assert ev("alltoall_time", m=m, n=n, alpha=alpha, beta=beta) == ev("reduce_scatter_time", m=m, n=n, alpha=alpha,
                                                                       beta=beta)
    assert ev("p2p_time", m=m, alpha=alpha, beta=beta) == pytest.approx(alpha + m / beta)


# --------------------------------------------------------------------------- C§3 FLOPs and MFU

def test_six_phi_rules():
    assert ev("forward_flops_per_token", phi=PHI_70B) == 2 * PHI_70B  # forward 2Φ
    assert ev("train_flops_per_token", phi=PHI_70B, l=80, a=64, s=0, h_head=128) == 6 * PHI_70B  # 2Φ + 4Φ
    assert ev("train_flops_per_token", phi=PHI_70B, l=80, a=64, s=4096, h_head=128) \
        == 6 * PHI_70B + 12 * 80 * 64 * 4096 * 128  # 6Φ + 12·L·a·s·h_head
    assert ev("train_flops", phi=PHI_70B, tokens=1) == 6 * PHI_70B
    # 8Φ with full recomputation: HFU / MFU = 8/6
    assert ev("hfu", tokens_per_s=1000, phi=PHI_70B, n_gpus=8, peak_flops=989e12) == pytest.approx(
        8 / 6 * ev("mfu", tokens_per_s=1000, phi=PHI_70B, n_gpus=8, peak_flops=989e12))


def test_attention_term_is_negligible_when_s_is_much_smaller_than_h():  # "当序列长度 s 远小于隐藏层维度时"
    full = ev("train_flops_per_token", phi=PHI_70B, l=80, a=64, s=512, h_head=128)
    assert full / (6 * PHI_70B) - 1 < 0.01


def test_mfu_bands():  # "MFU 通常在 45% ~ 55%", "破 50% 为合格，破 60% 为极优", "低于 30%"
    peak, n, phi = 989e12, 1024, PHI_70B
    tps_for = lambda mfu: mfu * n * peak / (6 * phi)  # noqa: E731
    for target in (0.30, 0.45, 0.50, 0.55, 0.60):
        assert ev("mfu", tokens_per_s=tps_for(target), phi=phi, n_gpus=n, peak_flops=peak) == pytest.approx(target)


# --------------------------------------------------------------------------- C§4 inference

def test_kv_cache_per_token_per_layer_is_4_nkv_dhead_bytes_in_fp16():
    for n_kv, d_head in ((8, 128), (64, 128), (1, 64)):
        assert ev("kv_bytes_per_token", layers=1, n_kv_heads=n_kv, d_head=d_head, bytes_per_elem=2) == 4 * n_kv * d_head


def test_total_kv_cache_is_4_b_s_l_nkv_dhead():
    B, S, L, n_kv, d = 8, 4096, 80, 8, 128
    assert ev("kv_cache_bytes", batch=B, seq=S, layers=L, n_kv_heads=n_kv, d_head=d, bytes_per_elem=2) \
        == 4 * B * S * L * n_kv * d


def test_gqa_and_mqa_compression():  # MHA 1×, GQA (64 → 8 KV heads, Llama-2-70B) 8×, MQA a×
    kv = lambda n_kv: ev("kv_bytes_per_token", layers=80, n_kv_heads=n_kv, d_head=128, bytes_per_elem=2)  # noqa: E731
    assert kv(64) / kv(8) == 8
    assert kv(64) / kv(1) == 64
    miss = {m.key: v for m, v in get("kv_bytes_per_token").misconception_values(
        layers=80, n_kv_heads=8, d_head=128, bytes_per_elem=2, n_heads=64)}
    assert miss["used_n_heads"] == kv(64)


def test_a100_decodes_70b_fp16_at_14_5_tokens_per_second():  # 2039 GB/s ÷ 140 GB ≈ 14.5 tok/s
    weights = ev("weights_bytes", phi=PHI_70B, bytes_per_param=2)
    assert weights == 140 * GB
    tps = ev("decode_tokens_per_s", bandwidth=2039 * GB, weight_bytes=weights, kv_bytes=0)
    assert tps == pytest.approx(2039 / 140)
    assert abs(tps - 14.5) / 14.5 < 0.05  # the seed truncates 14.56 to 14.5
    assert fmt_number(tps, 3) == "14.6"


def test_prefill_is_compute_bound_and_decode_memory_bound():
    # Prefill: a (B·S, h) × (h, h) GEMM; decode: a GEMV (batch 1) reading every weight once
    h, bs = 8192, 4096
    prefill = ev("gemm_intensity", m=bs, n=h, k=h, bytes_per_elem=2)
    decode = ev("gemm_intensity", m=1, n=h, k=h, bytes_per_elem=2)
    ridge = ev("ridge_point", peak_flops=312e12, bandwidth=2039 * GB)
    assert classify_bound(prefill, ridge) == "compute-bound"
    assert classify_bound(decode, ridge) == "memory-bound"
    assert decode == pytest.approx(1, rel=1e-3)


# --------------------------------------------------------------------------- C§5 / R§3 roofline

@pytest.mark.parametrize("gpu, tflops, gbs, ridge", [
    ("V100", 125, 900, "138.9"), ("A100", 312, 2039, "153"), ("H100", 989, 3350, "295.2"), ("B200", 2250, 8000, "281.3"),
])
def test_ridge_points(gpu, tflops, gbs, ridge):
    value = ev("ridge_point", peak_flops=tflops * 1e12, bandwidth=gbs * GB)
    assert fmt_number(value) == ridge, gpu  # the table prints 153.0: the same value to 4 figures


def test_ridge_mnemonic():  # "A100 拐点是 153，H100 拐点是 295"
    assert round(ev("ridge_point", peak_flops=312e12, bandwidth=2039 * GB)) == 153
    assert round(ev("ridge_point", peak_flops=989e12, bandwidth=3350 * GB)) == 295


def test_article_example_300_tflops_over_2_tbs_is_150():  # R§3.2
    assert ev("ridge_point", peak_flops=300e12, bandwidth=2e12) == 150
    assert classify_bound(149, 150) == "memory-bound" and classify_bound(151, 150) == "compute-bound"


def test_roofline_two_roofs():  # R§3.1: slope I × BW below the ridge, flat peak above
    peak, bw = 300e12, 2e12
    assert ev("attainable_flops", intensity=10, peak_flops=peak, bandwidth=bw) == 20e12
    assert ev("attainable_flops", intensity=150, peak_flops=peak, bandwidth=bw) == peak
    assert ev("attainable_flops", intensity=1000, peak_flops=peak, bandwidth=bw) == peak


def test_elementwise_ops_are_about_one_flop_per_byte_or_less():  # R§2.3 "基本就是1 FLOP/Byte级别"
    n = 1_000_000
    fp32 = ev("arithmetic_intensity", flops=n, bytes=8 * n)  # read 4 B, write 4 B, one add
    fp16 = ev("arithmetic_intensity", flops=n, bytes=4 * n)
    assert fp32 == 0.125 and fp16 == 0.25
    assert classify_bound(fp16, 150) == "memory-bound"


def test_gemm_intensity_grows_linearly_with_n():  # R§2.3: N×N GEMM, O(N³) work over O(N²) data
    i = {n: ev("gemm_intensity", m=n, n=n, k=n, bytes_per_elem=2) for n in (512, 1024, 4096)}
    assert i[512] == pytest.approx(512 / 3)
    assert i[1024] / i[512] == pytest.approx(2)
    assert classify_bound(i[4096], 150) == "compute-bound"  # "N 足够大（比如几千）算术强度轻松超过拐点"


def test_layernorm_single_digit_intensity_is_far_below_the_ridge():  # R§4.2: 个位数 FLOPs/Byte vs 150
    # LayerNorm in fp16: read x (2 B), write y (2 B), ~8 FLOPs per element
    assert ev("arithmetic_intensity", flops=8, bytes=4) == 2
    assert classify_bound(2, 150) == "memory-bound"


def test_small_batch_gemm_drops_below_the_ridge():  # R§4.1: batching raises intensity
    h = 8192
    ridge = ev("ridge_point", peak_flops=989e12, bandwidth=3350 * GB)
    small = ev("gemm_intensity", m=4, n=h, k=h, bytes_per_elem=2)
    large = ev("gemm_intensity", m=2048, n=h, k=h, bytes_per_elem=2)
    assert classify_bound(small, ridge) == "memory-bound"
    assert classify_bound(large, ridge) == "compute-bound"


# --------------------------------------------------------------------------- C§6 pipeline bubbles

def test_1f1b_bubble():
    assert ev("bubble_1f1b", p=4, m=8) == pytest.approx(3 / 11)
    assert ev("bubble_1f1b", p=8, m=1) == pytest.approx(7 / 8)


def test_interleaving_dilutes_the_bubble_about_v_times():
    plain = ev("bubble_1f1b", p=8, m=64)
    inter = ev("bubble_interleaved", p=8, m=64, v=4)
    assert inter == pytest.approx(7 / (4 * 64 + 7))
    assert plain / inter == pytest.approx(4, rel=0.1)
    assert ev("bubble_interleaved", p=8, m=64, v=1) == plain


def test_asymmetric_bubble_and_its_limit():
    t = (0.010, 0.012, 0.008)
    exact = ev("bubble_asymmetric", stage_times=t, m=8)
    assert exact == pytest.approx(1 - 8 * 0.030 / (3 * (0.030 + 7 * 0.012)))
    # equal stages: the 1F1B formula
    assert ev("bubble_asymmetric", stage_times=(0.01,) * 4, m=8) == pytest.approx(ev("bubble_1f1b", p=4, m=8))
    # m → ∞: 1 − mean(t)/max(t)
    assert ev("bubble_asymmetric", stage_times=t, m=1e9) == pytest.approx(1 - (0.030 / 3) / 0.012, abs=1e-6)
