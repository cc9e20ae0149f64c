"""Problems a 2026 candidate meets on 2026 parts (issue #25): FP4 decode on Blackwell, MoE models with few
active parameters, the H20's low compute against its high bandwidth, an NVL72 rack's 72-GPU NVLink domain
and a ring along one axis of a TPU's ICI torus.

The chips and models come from the catalogue's pools (``pools`` in question_bank/data/*.toml): ``fp4``
(B200, B300, GB200, GB300, MI355X), ``export`` (H20), ``rack`` (GB200, GB300), ``tpu`` (v5e, v5p, v6e,
v7), ``few_active`` (gpt-oss, Llama 4, Kimi-K2) and ``long_context`` (Llama-3.1 8B / 70B).
"""

from __future__ import annotations

from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from .. import hardware, models
from ..base import Ask, Spec, World, convention, given, template
from ..hardware import GPU
from ..models import Model
from .memory import nominal_phi, phi_text
from .roofline import CONV_EN, CONV_ZH, an, bw_given, peak_given

FP4_BYTES = 0.5  # NVFP4 / MXFP4: 4-bit values (their per-block scales are ignored here, as the problem says)
FIT_SHARE = 0.9  # the weights may take at most this share of one chip's memory (the rest: KV cache, workspace)


def _gb(value: float) -> str:
    return fmt_quantity(value, "bytes", unit="GB")


def _kv_tokens(m: Model, seq: int) -> tuple[int, str, str]:
    """Token positions the KV cache holds summed over the layers, and how (windowed / chunked layers hold less)."""
    if m.sliding_window and m.sliding_window_layers in ("even", "alternate"):
        full = m.layers // 2
        part = m.layers - full
        held = min(seq, m.sliding_window)
        return (full * seq + part * held,
                f"{full} full-attention layers × {seq:,} + {part} sliding-window layers × {held:,}",
                f"{full} 个全注意力层 × {seq:,} + {part} 个滑动窗口层 × {held:,}")
    if m.chunked_attention:
        chunk = m.chunked_attention  # Llama 4: 3 of every 4 layers attend within their chunk (models.toml)
        glob = m.layers // 4
        part = m.layers - glob
        held = min(seq, chunk)
        return (glob * seq + part * held,
                f"{glob} global layers × {seq:,} + {part} chunked layers × {held:,}",
                f"{glob} 个全局层 × {seq:,} + {part} 个分块层 × {held:,}")
    return m.layers * seq, f"{m.layers} layers × {seq:,}", f"{m.layers} 层 × {seq:,}"


def _fp4_pairs() -> list[tuple[Model, GPU]]:
    chips = hardware.pool("fp4")
    pool = [m for m in models.pool("few_active") + models.pool("long_context") if not m.is_mla]
    return [(m, g) for m in pool for g in chips if m.total_params * FP4_BYTES <= FIT_SHARE * g.memory]


@template("inference.fp4_decode", topic="inference", title="FP4 decode on Blackwell: dense or MoE",
          title_zh="Blackwell 上的 FP4 decode：稠密与 MoE", difficulty=2, target_seconds=120,
          source="R§4.2, pope2022")
def fp4_decode(rng):
    m, gpu = rng.choice(_fp4_pairs())
    seq = rng.choice([s for s in (1024, 2048, 4096, 8192, 16384, 32768) if s <= m.context])
    read = m.flop_params if m.is_moe else nominal_phi(m)  # the weights a token multiplies: all, or the active ones
    w = read * FP4_BYTES
    tokens, how_en, how_zh = _kv_tokens(m, seq)
    kv = 2 * 2 * m.n_kv_heads * m.d_head * tokens
    moe = m.is_moe
    phi_en = (f"Φ_active = {fmt_number(read)} of {fmt_number(nominal_phi(m))} (top-{m.top_k} of {m.experts} experts)"
              if moe else f"Φ = {fmt_number(read)}")
    phi_zh = (f"Φ_active = {fmt_number(read)}（共 {fmt_number(nominal_phi(m))}，{m.experts} 个专家中 top-{m.top_k}）"
              if moe else f"Φ = {fmt_number(read)}")
    lead_en = (f"Weights read per token = {phi_en} × 0.5 B = {_gb(w)}" + (" (a MoE token reads only its experts)"
                                                                           if moe else ""),
               f"KV = 2 × 2 B × {m.n_kv_heads} × {m.d_head} × ({how_en}) = {_gb(kv)}")
    lead_zh = (f"每个 token 读的权重 = {phi_zh} × 0.5 B = {_gb(w)}" + ("（MoE 的 token 只读它选中的专家）" if moe else ""),
               f"KV = 2 × 2 B × {m.n_kv_heads} × {m.d_head} × （{how_zh}）= {_gb(kv)}")
    active_en = (f", {phi_text(read)} of them active per token: top-{m.top_k} of {m.experts} experts" if moe else "")
    active_zh = (f"，每个 token 激活其中 {phi_text(read)}：{m.experts} 个专家中 top-{m.top_k}" if moe else "")
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("gpu", "GPU", "GPU", gpu.name), bw_given(gpu.bandwidth),
                given("phi", "Parameters Φ", "参数量 Φ", nominal_phi(m), "count", "params"))
        + ((given("phi_active", "Active parameters Φ_active", "激活参数 Φ_active", read, "count", "params"),)
           if moe else ())
        + (given("seq", "Context length", "上下文长度", seq),),
        asks=(Ask(formula="decode_tokens_per_s", unit="tok/s",
                  inputs={"bandwidth": gpu.bandwidth, "weight_bytes": w, "kv_bytes": kv},
                  explanation=lead_en, explanation_zh=lead_zh,
                  decomposition=("at batch 1, every generated token reads the weights it uses (a MoE token: only its "
                                 "active experts) and the whole KV cache from memory once; its 2Φ FLOPs take far less "
                                 "time than those bytes",),
                  decomposition_zh=("batch 为 1 时，每生成一个 token 都要把它用到的权重（MoE 只读被选中的专家）和整个 "
                                    "KV Cache 从显存读一遍；它的 2Φ FLOPs 耗时远小于读这些字节",),
                  takeaway=("FP4 halves the bytes of fp8 and quarters bf16's, so a memory-bound decode runs up to 4× "
                            "faster than bf16 on the same chip; a MoE model reads only its active experts, so its "
                            "speed follows Φ_active while its memory follows Φ.") if moe else
                           ("FP4 weights are a quarter of bf16's bytes: batch-1 decode, which reads every weight per "
                            "token, runs up to 4× faster on the same chip."),
                  takeaway_zh=("FP4 的字节数是 fp8 的一半、bf16 的四分之一，访存受限的 decode 在同一芯片上最多快 4 倍；"
                               "MoE 模型每个 token 只读被选中的专家，速度看 Φ_active，显存看 Φ。") if moe else
                              "FP4 权重只有 bf16 的四分之一字节：batch 1 的 decode 每个 token 读一遍全部权重，"
                              "在同一芯片上最多快 4 倍。",
                  prompt_en=f"{m.name} ({phi_text(nominal_phi(m))} parameters{active_en}) is served on one "
                            f"{gpu.name} with its weights in FP4 (0.5 B per parameter) and a bf16 KV cache; one "
                            f"sequence (batch 1) has {seq:,} tokens of context. What is the upper bound on tokens per "
                            "second?",
                  prompt_zh=f"{m.name}（{phi_text(nominal_phi(m))} 参数{active_zh}）部署在一张 {gpu.name} 上，权重为 "
                            f"FP4（每参数 0.5 B），KV Cache 为 bf16；单条序列（batch 1）上下文 {seq:,} 个 token。"
                            "每秒最多生成多少 token？"),),
        conventions_en=f"{CONV_EN} FP4 = 0.5 B per parameter (block scales ignored). Decode is memory-bound: each "
                       "step reads the weights a token uses once plus the sequence's KV cache.",
        conventions_zh=f"{CONV_ZH}FP4 每参数 0.5 B（忽略分块缩放因子）。Decode 为访存受限：每一步把 token 用到的权重"
                       "读一遍，再读该序列的 KV Cache。",
        world=World(model=m, gpu=gpu, precision="fp4", weights="fp4", kv="bf16", seq=seq, batch=1,
                    holds=("weights",)),
    )


@template("roofline.export_ridge", topic="roofline", title="H20: low compute, high bandwidth",
          title_zh="H20：算力低、带宽高", difficulty=2, target_seconds=90, source="R§3.2, williams2009")
def export_ridge(rng):
    gpu = rng.choice([g for g in hardware.pool("export") if g.peak("bf16") < hardware.get("h100_sxm").peak("bf16")])
    ref = hardware.get("h100_sxm")
    dtype = rng.choice(("bf16", "fp8"))
    per_byte = 2 / (2 if dtype == "bf16" else 1)  # 2·B FLOPs per weight, over its bytes
    ratio = ref.peak(dtype) / gpu.peak(dtype)
    ridge, ridge_ref = gpu.peak(dtype) / gpu.bandwidth, ref.peak(dtype) / ref.bandwidth
    while True:  # around the H20's ridge (37 FLOP/B bf16, 74 fp8), clear of it: quoting the wrong roof is wrong
        batch = rng.randint(1, 96)
        intensity = batch * per_byte
        if abs(intensity / ridge - 1) > 0.15:
            break
    bound_en = "memory-bound (below the ridge)" if intensity < ridge else "compute-bound (above the ridge)"
    bound_zh = "访存受限（低于拐点）" if intensity < ridge else "算力受限（高于拐点）"
    w_bytes = "2 B" if dtype == "bf16" else "1 B"
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name), peak_given(gpu.peak(dtype), dtype), bw_given(gpu.bandwidth),
                given("batch", "Decode batch B", "decode batch 大小 B", batch)),
        asks=(Ask(formula="attainable_flops", unit="TFLOPS",
                  inputs={"intensity": intensity, "peak_flops": gpu.peak(dtype), "bandwidth": gpu.bandwidth},
                  explanation=(f"A decode GEMM streams each {dtype} weight ({w_bytes}) once and does 2·B FLOPs with it: "
                               f"I = 2 × {batch} / {w_bytes[:-2]} = {intensity:g} FLOP/B",
                               f"ridge of the {gpu.name} = {gpu.peak(dtype) / 1e12:,.0f} TFLOPS ÷ "
                               f"{gpu.bandwidth / 1e12:g} TB/s = {ridge:,.0f} FLOP/B, so the GEMM is {bound_en}; "
                               f"the H100 SXM's ridge is {ridge_ref:,.0f} FLOP/B"),
                  explanation_zh=(f"decode 的 GEMM 把每个 {dtype} 权重（{w_bytes}）读一次，做 2·B 次 FLOP："
                                  f"I = 2 × {batch} / {w_bytes[:-2]} = {intensity:g} FLOP/B",
                                  f"{gpu.name} 的拐点 = {gpu.peak(dtype) / 1e12:,.0f} TFLOPS ÷ {gpu.bandwidth / 1e12:g} TB/s"
                                  f" = {ridge:,.0f} FLOP/B，所以该 GEMM {bound_zh}；H100 SXM 的拐点是 "
                                  f"{ridge_ref:,.0f} FLOP/B"),
                  takeaway=(f"The H20 has about 1/{ratio:.1f} of the H100's {dtype} compute but more bandwidth: its "
                            "ridge is so low that small-batch decode stays memory-bound and runs as fast as on an "
                            f"H100, while prefill, large batches and training are compute-bound and about {ratio:.1f}× "
                            "slower."),
                  takeaway_zh=(f"H20 的 {dtype} 算力约为 H100 的 1/{ratio:.1f}，带宽却更高：拐点很低，小 batch 的 decode "
                               "仍是访存受限，速度与 H100 相当；prefill、大 batch 和训练是算力受限，约慢 "
                               f"{ratio:.1f} 倍。"),
                  prompt_en=f"The H20, the export version of Hopper, keeps HBM3 bandwidth but has far less {dtype} "
                            f"compute. A decode step at batch {batch} multiplies the {dtype} weights by {batch} "
                            "token vectors. What FLOP/s can that weight-streaming GEMM reach on the H20 (the roofline)?",
                  prompt_zh=f"H20 是 Hopper 的出口版本，保留了 HBM3 带宽，但 {dtype} 算力低得多。batch 为 {batch} 的一步 "
                            f"decode 用 {dtype} 权重乘 {batch} 个 token 向量。这个流式读取权重的 GEMM 在 H20 上最多能达到"
                            "多少 FLOP/s（按 Roofline 模型）？"),),
        conventions_en=CONV_EN + " Activations and the KV cache are ignored: the weights dominate the bytes.",
        conventions_zh=CONV_ZH + "忽略激活和 KV Cache：字节数以权重为主。",
        world=(World(gpu=gpu, precision=dtype), World(gpu=ref, precision=dtype)),
    )


def _bytes_text(m: float) -> str:
    return fmt_quantity(m, "bytes", unit="MB" if m < 1e9 else "GB")


@template("communication.nvl72_allreduce", topic="communication", title="AllReduce inside an NVL72 rack",
          title_zh="NVL72 机柜内的 AllReduce", difficulty=2, target_seconds=120, source="C§2, thakur2005")
def nvl72_allreduce(rng):
    gpu = rng.choice(hardware.pool("rack"))
    n = rng.choice((16, 24, 32, 36, 48, 64, 72))
    m = rng.choice((64, 128, 256, 512, 1024, 2048, 4096)) * 1e6
    alpha = rng.choice((2, 3, 5)) * 1e-6
    beta = gpu.scale_up / 2  # NVIDIA quotes both directions together; a ring sends one way at a time
    domain = gpu.scale_up_domain
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                given("domain", "NVLink domain (GPUs)", "NVLink 域（GPU 数）", domain),
                given("n", "GPUs in the ring N", "环上的 GPU 数 N", n),
                given("m", "Message M", "消息大小 M", m, "bytes", "MB" if m < 1e9 else "GB"),
                given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs"),
                given("beta", "NVLink bandwidth per GPU, one way β", "每卡 NVLink 单向带宽 β", beta, "bandwidth",
                      "GB/s")),
        asks=(Ask(formula="allreduce_time", unit="ms",
                  explanation=(f"{gpu.name}: {gpu.scale_up / 1e9:,.0f} GB/s per GPU is NVIDIA's both-directions "
                               f"figure; a ring sends one way at a time: β = {beta / 1e9:,.0f} GB/s",
                               f"N = {n} ≤ {domain}: every hop of the ring stays on NVLink, none crosses the network"),
                  explanation_zh=(f"{gpu.name}：每卡 {gpu.scale_up / 1e9:,.0f} GB/s 是 NVIDIA 的双向合计；环每次只朝一个方向"
                                  f"发送：β = {beta / 1e9:,.0f} GB/s",
                                  f"N = {n} ≤ {domain}：环上每一跳都在 NVLink 上，不经过网络"),
                  takeaway=("An NVL72 rack is one NVLink domain of 72 GPUs: tensor and expert parallelism up to 72 "
                            "ways run at NVLink speed, where an 8-GPU HGX node would cross the network (400-800 Gb/s "
                            "per GPU, 10-20× slower) beyond 8."),
                  takeaway_zh=("NVL72 机柜是一个 72 卡的 NVLink 域：72 路以内的张量并行和专家并行都跑在 NVLink 上；"
                               "8 卡的 HGX 节点超过 8 路就要走网络（每卡 400-800 Gb/s，慢 10-20 倍）。"),
                  prompt_en=f"In a {gpu.name} NVL72 rack ({domain} GPUs on one NVLink switch domain), {n} GPUs "
                            f"all-reduce a {_bytes_text(m)} message with a ring. How long does it take in the α-β "
                            "model?",
                  prompt_zh=f"在 {gpu.name} NVL72 机柜中（{domain} 张 GPU 在同一个 NVLink 交换域），{n} 张 GPU 用环形算法"
                            f"对 {_bytes_text(m)} 的消息做 AllReduce。按 α-β 模型需要多长时间？"),),
        conventions_en=f"{CONV_EN} MB = 1e6 B. Ring AllReduce: 2(N−1) steps, each GPU sends 2(N−1)/N × M.",
        conventions_zh=f"{CONV_ZH}MB = 1e6 B。环形 AllReduce：2(N−1) 步，每卡发送 2(N−1)/N × M。",
        world=World(gpu=gpu),
    )


@template("communication.tpu_ici_ring", topic="communication", title="A ring along one axis of a TPU torus",
          title_zh="TPU 环面一个维度上的环", difficulty=2, target_seconds=150, source="C§2, thakur2005", conventions=("directions",))
def tpu_ici_ring(rng):
    gpu = rng.choice(hardware.pool("tpu"))
    dims = 3 if gpu.scale_up_domain > 1024 else 2  # v5p and v7: 3D torus (6 links per chip); v5e, v6e: 2D (4)
    links = 2 * dims
    n = rng.choice((4, 8, 16) if dims == 3 else (4, 8, 16))
    m = rng.choice((32, 64, 128, 256, 512, 1024)) * 1e6
    alpha = rng.choice((1, 2, 4)) * 1e-6
    per_link = gpu.scale_up / (2 * links)  # the quoted figure: every link, both directions
    # issue #24: a bidirectional ring (directions=2, the JAX scaling book) when the learner chose it
    way_en, way_zh = (("one way", "单向") if convention("directions") == "1" else
                      ("both ways at once", "双向同时传输"))
    return Spec(
        givens=(given("gpu", "TPU", "TPU", gpu.name),
                given("ici", "ICI bandwidth per chip (both directions, all links)", "每芯片 ICI 带宽（双向、全部链路）",
                      gpu.scale_up, "bandwidth", "GB/s"),
                given("links", "ICI links per chip", "每芯片 ICI 链路数", links),
                given("n", "Chips along the axis N", "该维度上的芯片数 N", n),
                given("m", "Message M", "消息大小 M", m, "bytes", "MB" if m < 1e9 else "GB"),
                given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs")),
        asks=(Ask(formula="allreduce_time", unit="ms", inputs={"m": m, "n": n, "alpha": alpha, "beta": per_link},
                  explanation=(f"{gpu.name} is a {dims}D torus: {links} links per chip, two along each axis; Google "
                               f"quotes {gpu.scale_up / 1e9:,.0f} GB/s over all of them in both directions",
                               f"a ring along one axis sends over one link, one way: β = {gpu.scale_up / 1e9:,.0f} ÷ "
                               f"({links} × 2) = {per_link / 1e9:g} GB/s"),
                  explanation_zh=(f"{gpu.name} 是 {dims} 维环面：每芯片 {links} 条链路，每个维度两条；Google 给出的 "
                                  f"{gpu.scale_up / 1e9:,.0f} GB/s 是全部链路、双向的合计",
                                  f"沿一个维度的环只用一条链路、一个方向：β = {gpu.scale_up / 1e9:,.0f} ÷ "
                                  f"（{links} × 2）= {per_link / 1e9:g} GB/s"),
                  takeaway=("A TPU pod is a torus of point-to-point ICI links, not a switch: a collective along one "
                            "axis gets one link's bandwidth, so the per-chip ICI figure is divided by the links and "
                            "directions; all-reducing over several axes at once uses more of them."),
                  takeaway_zh=("TPU pod 是由点对点 ICI 链路组成的环面，不是交换机：沿一个维度的集合通信只能用一条链路的"
                               "带宽，所以每芯片的 ICI 总带宽要除以链路数和方向数；同时在多个维度上做 AllReduce 才能用上"
                               "更多链路。"),
                  prompt_en=f"On {gpu.name}, {n} chips along one axis of the torus all-reduce a {_bytes_text(m)} "
                            f"message with a ring that runs {way_en} along that axis. How long does it take in the "
                            "α-β model?",
                  prompt_zh=f"在 {gpu.name} 上，环面某一维度上的 {n} 个芯片用沿该维度{way_zh}的环对 {_bytes_text(m)} 的消息"
                            "做 AllReduce。按 α-β 模型需要多长时间？"),),
        conventions_en=f"{CONV_EN} MB = 1e6 B. Ring AllReduce: 2(N−1) steps, each chip sends 2(N−1)/N × M over one "
                       "link.",
        conventions_zh=f"{CONV_ZH}MB = 1e6 B。环形 AllReduce：2(N−1) 步，每芯片经一条链路发送 2(N−1)/N × M。",
        world=World(gpu=gpu),
    )


# --------------------------------------------------------------------------- #
# FP8 at its own dense peak: the ridge doubles, the decode batch that turns compute-bound does not

SAME = Choice("about the same", ("same", "the same", "about the same", "equal", "unchanged", "no change", "相同",
                                 "一样", "不变", "基本相同", "差不多"), "基本相同")
LARGER = Choice("larger", ("larger", "bigger", "higher", "more", "increases", "更大", "变大", "增大"), "更大")
SMALLER = Choice("smaller", ("smaller", "lower", "less", "decreases", "更小", "变小", "减小"), "更小")


@template("roofline.fp8_chain", topic="roofline",
          title="FP8 at its own peak: ridge point → critical decode batch → against bf16 → decode FLOP/s",
          title_zh="FP8 按自身峰值算：拐点 → decode 临界 batch → 与 bf16 对比 → decode 算力", difficulty=3,
          target_seconds=300,
          source="R§3.2, R§4.1, williams2009, pope2022")
def fp8_chain(rng):
    gpu = hardware.draw(rng, hardware.with_dtype("fp8"), accept=lambda g: g.supports("fp8") and g.supports("bf16"))
    f8, f16, bw = gpu.peak("fp8"), gpu.peak("bf16"), gpu.bandwidth
    ridge8 = f8 / bw
    crit8, crit16 = ridge8 * 1 / 2, f16 / bw * 2 / 2
    change = crit8 / crit16
    answer = SAME.key if abs(change - 1) <= 0.05 else LARGER.key if change > 1 else SMALLER.key
    verdict_en = {SAME.key: "about the same", LARGER.key: "larger", SMALLER.key: "smaller"}[answer]
    verdict_zh = {SAME.key: "基本相同", LARGER.key: "更大", SMALLER.key: "更小"}[answer]
    batch = rng.choice([b for b in (4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
                        if abs(b / crit8 - 1) > 0.15])
    bound_en = ("below", "memory-bound") if batch < crit8 else ("above", "compute-bound")
    bound_zh = ("低于", "访存受限") if batch < crit8 else ("高于", "算力受限")
    return Spec(
        scenario_en=f"A model is served on {an(gpu.name)} with fp8 weights multiplied on the fp8 tensor cores "
                    "(activations quantised to fp8 too), instead of bf16 weights on the bf16 tensor cores.",
        scenario_zh=f"一个模型部署在 {gpu.name} 上，权重为 fp8、在 fp8 Tensor Core 上做乘法（激活也量化为 fp8），"
                    "而不是 bf16 权重在 bf16 Tensor Core 上计算。",
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                given("peak_fp8", "Peak dense fp8 FLOP/s", "fp8 稠密峰值算力", f8, "flop_rate", "TFLOPS"),
                given("peak_bf16", "Peak dense bf16 FLOP/s", "bf16 稠密峰值算力", f16, "flop_rate", "TFLOPS"),
                bw_given(bw)),
        asks=(Ask(formula="ridge_point", inputs={"peak_flops": f8, "bandwidth": bw}, unit="FLOP/B",
                  extras={"peak_flops_16": f16},
                  takeaway=f"fp8 doubles the peak but not the bandwidth: the ridge is twice the bf16 one "
                           f"({fmt_number(f16 / bw)} FLOP/B), so a kernel must do twice the work per byte to be "
                           "compute-bound in fp8.",
                  takeaway_zh=f"fp8 让峰值翻倍、带宽不变：拐点是 bf16 的两倍（bf16 为 {fmt_number(f16 / bw)} FLOP/B），"
                              "算子每字节要做两倍的计算才能在 fp8 下算力受限。",
                  prompt_en=f"What is the ridge point of the {gpu.name} for fp8 kernels?",
                  prompt_zh=f"{gpu.name} 上 fp8 算子的拐点算术强度是多少？"),
              Ask(formula="critical_batch", inputs={"peak_flops": f8, "bandwidth": bw, "bytes_per_elem": 1}, unit="",
                  takeaway="with fp8 weights at the fp8 peak the batch is ridge × 1 B / 2: the doubled ridge meets "
                           "the halved bytes.",
                  takeaway_zh="fp8 权重按 fp8 峰值计算时，临界 batch = 拐点 × 1 B / 2：翻倍的拐点遇上减半的字节数。",
                  prompt_en="At what decode batch do the fp8 weight-streaming GEMMs become compute-bound?",
                  prompt_zh="decode batch 达到多少时，流式读取 fp8 权重的 GEMM 转为算力受限？"),
              Ask(choices=(SAME, LARGER, SMALLER), answer=answer,
                  prompt_en="Compared with bf16 weights on the bf16 tensor cores, is that critical batch larger, "
                            "smaller or about the same?",
                  prompt_zh="与 bf16 权重在 bf16 Tensor Core 上计算相比，这个临界 batch 更大、更小还是基本相同？",
                  explanation=(f"bf16: B* = {fmt_number(f16 / 1e12)} TFLOPS ÷ {fmt_number(bw / 1e12)} TB/s × 2 B / 2 = "
                               f"{fmt_number(round(crit16))}",
                               f"fp8: B* = {fmt_number(ridge8)} FLOP/B × 1 B / 2 = {fmt_number(round(crit8))} (step 2)",
                               f"fp8's peak is {fmt_number(round(f8 / f16, 2))}× bf16's while each weight is half the "
                               f"bytes: the ratio is {fmt_number(round(change, 3))}, {verdict_en}"),
                  explanation_zh=(f"bf16：B* = {fmt_number(f16 / 1e12)} TFLOPS ÷ {fmt_number(bw / 1e12)} TB/s × 2 B / 2 = "
                                  f"{fmt_number(round(crit16))}",
                                  f"fp8：B* = {fmt_number(ridge8)} FLOP/B × 1 B / 2 = {fmt_number(round(crit8))}（第 2 步）",
                                  f"fp8 的峰值是 bf16 的 {fmt_number(round(f8 / f16, 2))} 倍，每个权重的字节数却减半："
                                  f"两者之比为 {fmt_number(round(change, 3))}，{verdict_zh}"),
                  takeaway=("fp8 doubles both the peak and the FLOPs each byte of weight feeds, so the ridge doubles "
                            "but the decode batch that saturates the tensor cores stays put: fp8 makes memory-bound "
                            "decode up to 2× faster (half the bytes) and compute-bound prefill up to 2× faster (twice "
                            "the peak), without changing where one turns into the other.") if answer == SAME.key else
                           (f"on the {gpu.name} fp8's peak is not twice bf16's, so the critical batch moves by fp8 "
                            "peak ÷ (2 × bf16 peak): read the precision's own dense peak from the datasheet."),
                  takeaway_zh=("fp8 让峰值和每字节权重支撑的 FLOPs 都翻倍，所以拐点翻倍，但打满 Tensor Core 所需的 decode "
                               "batch 不变：fp8 让访存受限的 decode 最多快 2 倍（字节减半），让算力受限的 prefill 最多快 2 倍"
                               "（峰值翻倍），而两者的分界点不变。") if answer == SAME.key else
                              (f"{gpu.name} 的 fp8 峰值不是 bf16 的两倍，临界 batch 按 fp8 峰值 ÷（2 × bf16 峰值）变化："
                               "要从数据手册读取该精度自己的稠密峰值。"),
                  card_formulas=("ridge_point", "critical_batch")),
              Ask(formula="attainable_flops", unit="TFLOPS",
                  inputs={"intensity": 2.0 * batch, "peak_flops": f8, "bandwidth": bw},
                  explanation=(f"an fp8 decode GEMM at batch {batch} does 2 × {batch} FLOPs per 1-byte weight: "
                               f"I = {2 * batch} FLOP/B, {bound_en[0]} the fp8 ridge of {fmt_number(ridge8)} FLOP/B "
                               f"(batch {batch} {bound_en[0]} B* = {fmt_number(round(crit8))}): {bound_en[1]}",),
                  explanation_zh=(f"batch 为 {batch} 的 fp8 decode GEMM 对每个 1 字节权重做 2 × {batch} 次 FLOP："
                                  f"I = {2 * batch} FLOP/B，{bound_zh[0]} fp8 拐点 {fmt_number(ridge8)} FLOP/B"
                                  f"（batch {batch} {bound_zh[0]} B* = {fmt_number(round(crit8))}）：{bound_zh[1]}",),
                  takeaway="below the critical batch fp8 decode runs at I × BW, twice bf16's FLOP/s at the same batch "
                           "(each byte is a whole weight); above it, at the fp8 peak, twice bf16's.",
                  takeaway_zh="低于临界 batch 时，fp8 decode 的算力为 I × BW，是同 batch 下 bf16 的两倍（每个字节就是一个"
                              "完整权重）；高于它时达到 fp8 峰值，也是 bf16 的两倍。",
                  prompt_en=f"At a decode batch of {batch}, what FLOP/s can those fp8 weight-streaming GEMMs reach "
                            "(the roofline at the fp8 peak)?",
                  prompt_zh=f"decode batch 为 {batch} 时，这些流式读取 fp8 权重的 GEMM 最多能达到多少 FLOP/s"
                            "（按 fp8 峰值下的 Roofline 模型）？")),
        conventions_en=CONV_EN + " A decode GEMM reads each weight once per step and does 2 FLOPs with it per "
                                 "sequence; activations and the KV cache are ignored.",
        conventions_zh=CONV_ZH + "decode 的 GEMM 每步把每个权重读一次，对每条序列用它做 2 次 FLOP；忽略激活和 KV Cache。",
        world=(World(gpu=gpu, precision="fp8"), World(gpu=gpu, precision="bf16")),
    )
