"""Mixture of experts at scale: wide expert parallelism at decode, the all-to-all bytes of a token, the experts
a decode step touches and the weights it reads, and the batch at which expert GEMMs turn compute-bound.

Models are the catalogue's MoE models with their real configs (E, k, d_model, MoE layers); DeepSeek-V3's own
deployment figures (EP32 prefill, EP144 / EP320 decode, 32 redundant experts, FP8 dispatch and BF16 combine,
at most 4 nodes per token) are the spec's.  NICs are 400 Gb/s (50 GB/s) or 800 Gb/s (100 GB/s) per GPU (the
range scaleout_nic_per_gpu); the per-dispatch latency of 10-40 µs is DeepEP's low-latency kernels' order (its
table: 77-194 µs for a whole 128-token dispatch), not a measured constant.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice

from .. import hardware, kit, models
from ..hardware import DTYPE_BYTES
from ..spec import Ask, Spec, World, given
from ..template import convention, template
from .chip_givens import CONV_EN, CONV_ZH
from .moe import HYPOTHETICAL, name_zh, phi_dense, phi_expert

WIDE = ("qwen3_235b_a22b", "deepseek_v2", "deepseek_v3")  # 128-256 routed experts: the wide-EP models
EP_CONV_EN = ("Routed experts only (a shared expert is extra). Per token, per MoE layer, forward. Dispatch sends each "
              "token's hidden vector to its k experts, combine brings the k outputs back. kB = 10³ B, GB = 10⁹ B.")
EP_CONV_ZH = ("只算路由专家（共享专家另算）。按每个 token、每个 MoE 层、前向计。分发把每个 token 的隐藏向量发给它的 k 个专家，"
              "合并把 k 个输出送回来。kB = 10³ B，GB = 10⁹ B。")


def _wide(rng):
    return models.get(rng.choice(WIDE))


def _collides(e: int, k: int, tokens: int) -> bool:
    """Whether tokens collide enough that E (1 − (1 − k/E)^T) is 8 %+ below min(E, k·T) (else "no collisions" and
    "every expert" are no slips to name) and 8 %+ below E."""
    return e * (1 - (1 - k / e) ** tokens) < 0.92 * min(e, k * tokens)


def _moe_layers(m) -> int:
    return m.moe_layers or m.layers


def _ek_givens(m) -> tuple:
    return (given("model", "Model", "模型", m.name, value_zh=name_zh(m)),
            given("n_experts", "Routed experts per MoE layer E", "每个 MoE 层的路由专家数 E", m.experts),
            given("top_k", "Experts per token k", "每个 token 激活的专家数 k", m.top_k))


def _precision_givens(dispatch: int) -> tuple:
    return (given("dispatch_bytes", "Dispatch bytes per element (fp8 = 1, bf16 = 2)", "分发每元素字节数（fp8 = 1，bf16 = 2）",
                  dispatch, "bytes", "B"),
            given("combine_bytes", "Combine bytes per element (bf16)", "合并每元素字节数（bf16）", 2, "bytes", "B"))


@template("moe.experts_per_gpu", topic="moe", title="Experts per GPU under wide expert parallelism",
          title_zh="宽专家并行下每张卡的专家数", difficulty=1, target_seconds=60, source="deepseek_v3")
def experts_per_gpu(rng):
    m = _wide(rng)
    while True:
        ep = rng.choice((4, 6, 8, 12, 16, 24, 32, 40, 48, 64, 72, 96, 128, 144, 160, 192, 256, 320))
        red = rng.choice((8, 16, 32, 64))
        if ep <= m.experts + red and (m.experts + red) % ep:  # a remainder: rounding up is the point
            break
    return Spec(
        givens=_ek_givens(m)[:2] + (given("redundant_experts", "Redundant expert copies", "冗余专家副本数", red),
                                    given("ep", "Expert-parallel GPUs EP", "专家并行的 GPU 数 EP", ep)),
        asks=(Ask(formula="experts_per_gpu", inputs={"n_experts": m.experts, "redundant_experts": red, "ep": ep},
                  unit="", integer=True,
                  prompt_en=f"You serve {m.name} with its {m.experts} routed experts per layer, plus {red} redundant "
                            f"copies of hot experts, spread over an EP group of {ep} GPUs. How many expert slots must "
                            "each GPU hold per MoE layer (a whole number)?",
                  prompt_zh=f"你部署 {m.name}：每层 {m.experts} 个路由专家，另加 {red} 个热门专家的冗余副本，分布在 {ep} 张卡的 "
                            "EP 组上。每张卡每个 MoE 层要放多少个专家（整数）？"),),
        conventions_en=EP_CONV_EN, conventions_zh=EP_CONV_ZH,
        world=World(model=m),
    )


@template("moe.a2a_bytes_per_token", topic="moe", title="All-to-all bytes of one token per MoE layer",
          title_zh="一个 token 在一个 MoE 层的 All-to-All 字节数", difficulty=2, target_seconds=90,
          source="deepseek_v3, deepep")
def a2a_bytes_per_token(rng):
    m = rng.choice(models.MOE_MODELS)
    # half the problems: another 2026 shape (d_model 2880-7168, top-2 to top-8), no model named
    if rng.random() < 0.5:
        m = m._replace(key="hypothetical_moe", name=HYPOTHETICAL, d_model=rng.choice((2880, 3072, 4096, 5120, 6144, 7168)),
                       top_k=rng.choice((2, 4, 6, 8)))
    dispatch = rng.choice((1, 1, 2))
    # half the problems count only the copies that leave the GPU (GShard-style volume): the EP group matters then
    ep_groups = [e for e in (8, 16, 32, 64, 144, 256, 320) if e <= m.experts]
    ep = rng.choice(ep_groups) if rng.random() < 0.5 else 0
    # the learner's convention (count_local=false) counts only the remote copies in every problem: it sets
    # count_local, and the EP group is drawn (last, so the other draws stay those of the default)
    remote = convention("count_local") == "false"
    if remote and not ep:
        ep = rng.choice(ep_groups)
    inputs = {"top_k": m.top_k, "d_model": m.d_model, "dispatch_bytes": dispatch, "combine_bytes": 2,
              **({"ep": ep} if remote else {"count_local": 0, "ep": ep} if ep else {})}
    how_en = (f"Counting only the copies that leave the GPU (experts spread evenly over an EP group of {ep} GPUs)"
              if ep else "Counting every routed copy (also those whose expert is on the sending GPU)")
    how_zh = (f"只计离开本卡的副本（专家均匀分布在 {ep} 张卡的 EP 组上）" if ep else "计入每个路由副本（包括专家就在发送卡上的）")
    prec = "fp8" if dispatch == 1 else "bf16"
    return Spec(
        givens=_ek_givens(m)[:1] + _ek_givens(m)[2:] + (kit.model(m, "d_model", label=("Hidden size d_model",
                                                                                        "隐藏维度 d_model")),)
        + _precision_givens(dispatch)
        + ((given("ep", "Expert-parallel GPUs EP", "专家并行的 GPU 数 EP", ep),) if ep else ()),
        asks=(Ask(formula="moe_a2a_bytes_per_token", unit="kB", inputs=inputs,
                  prompt_en=f"{m.name[0].upper()}{m.name[1:]} routes each token to {m.top_k} experts; dispatch is in "
                            f"{prec}, combine in bf16. "
                            f"{how_en}, how many bytes does one token move per MoE layer in the forward pass, in kB?",
                  prompt_zh=f"{name_zh(m)}{' ' if name_zh(m)[-1].isascii() else ''}把每个 token 路由到 {m.top_k} 个专家；"
                            f"分发用 {prec}，合并用 bf16。{how_zh}，"
                            "一个 token 在一个 MoE 层前向要搬多少字节（kB）？"),),
        conventions_en=EP_CONV_EN, conventions_zh=EP_CONV_ZH,
        world=World(model=m),
    )


@template("moe.node_limited_ib_bytes", topic="moe", title="InfiniBand bytes per token with node-limited routing",
          title_zh="节点受限路由下每个 token 的 InfiniBand 字节数", difficulty=2, target_seconds=90,
          source="deepseek_v3")
def node_limited_ib_bytes(rng):
    m = _wide(rng)
    # half the problems: another 2026 shape (d_model 2880-7168, top-4 to top-8), no model named
    d, k = (m.d_model, m.top_k) if rng.random() < 0.5 else (rng.choice((2880, 3072, 4096, 5120, 6144, 7168)),
                                                             rng.choice((4, 6, 8)))
    named = (d, k) == (m.d_model, m.top_k)
    nodes = rng.choice([x for x in (1, 2, 3, 4) if x < k])
    dispatch = rng.choice((1, 2))
    what_en = f"{m.name}'s top-{k} routing is" if named else f"An MoE model's top-{k} routing (d_model {d:,}) is"
    what_zh = f"{m.name} 的 top-{k} 路由" if named else f"一个 MoE 模型（d_model {d:,}）的 top-{k} 路由"
    return Spec(
        givens=((given("model", "Model", "模型", m.name),) if named else ()) + (
            given("top_k", "Experts per token k", "每个 token 激活的专家数 k", k),
            given("nodes_per_token", "Nodes a token may reach M", "一个 token 最多发往的节点数 M", nodes),
            kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model")) if named else
            given("d_model", "Hidden size d_model", "隐藏维度 d_model", d)) + _precision_givens(dispatch),
        asks=(Ask(formula="moe_node_limited_ib_bytes_per_token", unit="kB", extras={"top_k": k},
                  inputs={"nodes_per_token": nodes, "d_model": d, "dispatch_bytes": dispatch, "combine_bytes": 2},
                  prompt_en=f"{what_en} limited so that a token's experts sit on {nodes} node{'s' if nodes > 1 else ''}. "
                            "Each token crosses InfiniBand once per target node and fans out over NVLink there. How "
                            "many IB bytes does one token cost per MoE layer, dispatch and combine, in kB?",
                  prompt_zh=f"{what_zh}被限制为一个 token 的专家只在 {nodes} 个节点上。每个 token 对每个目标节点只经 "
                            "InfiniBand 传一次，再在节点内经 NVLink 扇出。一个 token 在一个 MoE 层（分发加合并）要走多少 IB "
                            "字节（kB）？"),),
        conventions_en=EP_CONV_EN, conventions_zh=EP_CONV_ZH,
        world=World(model=m) if named else None,
    )


@template("moe.distinct_experts", topic="moe", title="Experts a decode batch touches",
          title_zh="一个 decode 批次用到的专家数", difficulty=2, target_seconds=90, source="austin2025")
def distinct_experts(rng):
    m = _wide(rng)
    # half the problems: one MoE layer of another 2026 shape (E 64-384, k 2-8), no model named
    e, k = (m.experts, m.top_k) if rng.random() < 0.5 else (rng.choice((64, 96, 128, 160, 256, 384)),
                                                             rng.choice((2, 4, 6, 8)))
    tokens = rng.choice([t for t in (4, 6, 8, 12, 16, 24, 32, 40, 48, 64, 96, 128) if _collides(e, k, t)])
    named = (e, k) == (m.experts, m.top_k)
    what_en = f"A decode step of {m.name}" if named else f"A decode step of an MoE model with top-{k} of {e} experts"
    what_zh = f"{m.name} 的一个 decode 步" if named else f"一个 {e} 选 {k} 的 MoE 模型的一个 decode 步"
    return Spec(
        givens=((given("model", "Model", "模型", m.name),) if named else ()) + (
            given("n_experts", "Routed experts per MoE layer E", "每个 MoE 层的路由专家数 E", e),
            given("top_k", "Experts per token k", "每个 token 激活的专家数 k", k),
            given("tokens", "Tokens in the step T (one per sequence)", "这一步的 token 数 T（每条序列一个）", tokens)),
        asks=(Ask(formula="moe_distinct_experts", unit="", inputs={"n_experts": e, "top_k": k, "tokens": tokens},
                  prompt_en=f"{what_en} runs {tokens} sequences, one token each. With uniform, independent routing, "
                            "how many of one MoE layer's routed experts does the step touch on average?",
                  prompt_zh=f"{what_zh}同时处理 {tokens} 条序列，每条一个 token。路由均匀且相互独立时，这一步平均会用到一个 "
                            "MoE 层的多少个路由专家？"),),
        conventions_en="Each token picks its k experts uniformly at random, distinct within the token, independently "
                       "of the other tokens.",
        conventions_zh="每个 token 均匀随机地选 k 个不同的专家，与其他 token 相互独立。",
        world=World(model=m) if named else None,
    )


@template("moe.decode_weight_bytes", topic="moe", title="Weight bytes one MoE decode step reads",
          title_zh="一个 MoE decode 步读取的权重字节数", difficulty=3, target_seconds=150, source="austin2025, deepseek_v3")
def decode_weight_bytes(rng):
    m = _wide(rng)
    tokens = rng.choice([t for t in (4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64)
                         if _collides(m.experts, m.top_k, t)])
    dtype = rng.choice(("bf16", "fp8", "fp4"))
    bpp = DTYPE_BYTES[dtype]
    return Spec(
        givens=_ek_givens(m) + (
            given("phi_dense", "Φ_dense (outside the routed experts)", "Φ_dense（路由专家以外）", phi_dense(m)),
            given("phi_expert", "Φ_expert (one expert, all MoE layers)", "Φ_expert（单个专家，所有 MoE 层）", phi_expert(m)),
            given("tokens", "Sequences decoded together T", "一起 decode 的序列数 T", tokens),
            given("bytes_per_param", f"Bytes per parameter ({dtype})", f"每参数字节数（{dtype}）", bpp, "bytes", "B")),
        asks=(Ask(formula="moe_decode_weight_bytes", unit="GB",
                  inputs={"phi_dense": phi_dense(m), "phi_expert": phi_expert(m), "n_experts": m.experts,
                          "top_k": m.top_k, "tokens": tokens, "bytes_per_param": bpp},
                  prompt_en=f"{m.name} decodes {tokens} sequences together with {dtype} weights. With uniform routing, "
                            "how many bytes of weights does one memory-bound decode step read on average (the shared "
                            "part once, each touched expert once), in GB?",
                  prompt_zh=f"{m.name} 以 {dtype} 权重同时 decode {tokens} 条序列。路由均匀时，一个访存受限的 decode 步平均要读多少"
                            "权重字节（共享部分读一次，每个被用到的专家读一次），以 GB 表示？"),),
        conventions_en="Φ_expert is one routed expert summed over all MoE layers; Φ_dense is everything else. Each "
                       "token picks k distinct experts uniformly, independently. GB = 10⁹ B.",
        conventions_zh="Φ_expert 是一个路由专家在所有 MoE 层上的参数之和；Φ_dense 是其余一切。每个 token 均匀、独立地选 k 个"
                       "不同专家。GB = 10⁹ B。",
        world=World(model=m, precision=dtype),
    )


@template("moe.critical_batch", topic="moe", title="Tokens per step for compute-bound expert GEMMs",
          title_zh="专家 GEMM 进入算力受限所需的每步 token 数", difficulty=2, target_seconds=90, source="austin2025")
def critical_batch(rng):
    m = _wide(rng)
    dtype = rng.choice(("bf16", "fp8"))
    gpu = hardware.draw(rng, [g for g in hardware.GPUS if g.supports(dtype) and g.supports("bf16")])
    e, k = (m.experts, m.top_k) if rng.random() < 0.5 else (rng.choice((64, 128, 160, 256, 384)), rng.choice((2, 4, 8)))
    named = (e, k) == (m.experts, m.top_k)
    what_en = f"{m.name} (top-{k} of {e})" if named else f"An MoE model (top-{k} of {e})"
    what_zh = f"{m.name}（{e} 选 {k}）" if named else f"一个 MoE 模型（{e} 选 {k}）"
    return Spec(
        givens=(kit.named_peak(gpu, dtype), kit.chip(gpu, "bandwidth"),
                given("bytes_per_elem", f"Bytes per weight ({dtype})", f"每个权重的字节数（{dtype}）", DTYPE_BYTES[dtype],
                      "bytes", "B"),
                given("n_experts", "Routed experts per MoE layer E", "每个 MoE 层的路由专家数 E", e),
                given("top_k", "Experts per token k", "每个 token 激活的专家数 k", k)),
        asks=(Ask(formula="moe_critical_batch", unit="",
                  prompt_en=f"{what_en} decodes on {gpu.name} GPUs in {dtype}. Under "
                            "uniform routing, how many tokens per step across the EP group make each expert's GEMM as "
                            "compute-bound as a dense matmul at its critical batch?",
                  prompt_zh=f"{what_zh}在 {gpu.name} 上以 {dtype} 做 decode。路由均匀时，整个 EP 组每步"
                            "要多少个 token，才能让每个专家的 GEMM 达到稠密矩阵乘临界批大小时的算力受限程度？"),),
        conventions_en=f"{CONV_EN} Critical batch of a dense matmul: peak ÷ bandwidth × bytes ÷ 2 tokens (weights "
                       "dominate the bytes).",
        conventions_zh=f"{CONV_ZH}稠密矩阵乘的临界批大小：峰值 ÷ 带宽 × 字节数 ÷ 2 个 token（字节以权重为主）。",
        world=World(model=m if named else None, gpu=gpu, precision=dtype),
    )


@template("moe.ep_decode_comm_time", topic="moe", title="Expert-parallel communication time of a decode step",
          title_zh="一个 decode 步的专家并行通信时间", difficulty=3, target_seconds=150, source="deepep, deepseek_v3")
def ep_decode_comm_time(rng):
    m = _wide(rng)
    tokens = rng.choice((16, 32, 64, 96, 128, 192, 256))
    alpha = rng.choice((10, 15, 20, 25, 30, 40)) * 1e-6
    nic = rng.choice((50e9, 100e9))
    inputs = {"moe_layers": _moe_layers(m), "tokens_per_gpu": tokens, "top_k": m.top_k, "d_model": m.d_model,
              "dispatch_bytes": 1, "combine_bytes": 2, "alpha": alpha, "link_bandwidth": nic}
    return Spec(
        givens=(given("model", "Model", "模型", m.name),
                given("moe_layers", "MoE layers L_moe", "MoE 层数 L_moe", _moe_layers(m)),
                given("tokens_per_gpu", "Tokens per GPU per step", "每卡每步的 token 数", tokens),
                given("top_k", "Experts per token k", "每个 token 激活的专家数 k", m.top_k),
                kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model"))) + _precision_givens(1) + (
                given("alpha", "Latency of one dispatch or combine α", "一次分发或合并的延迟 α", alpha, "time", "µs"),
                given("link_bandwidth", f"NIC per GPU, one way ({nic * 8 / 1e9:.0f} Gb/s)",
                      f"每卡网卡，单向（{nic * 8 / 1e9:.0f} Gb/s）", nic, "bandwidth", "GB/s")),
        asks=(Ask(formula="ep_decode_comm_time", inputs=inputs, unit="ms",
                  prompt_en=f"{m.name} decodes with wide expert parallelism, {tokens} tokens per GPU per step. Each "
                            "MoE layer runs one dispatch (fp8) and one combine (bf16) over the GPU's NIC, counting every "
                            "routed copy. How long does one decode step spend in expert-parallel communication, in ms?",
                  prompt_zh=f"{m.name} 用宽专家并行做 decode，每卡每步 {tokens} 个 token。每个 MoE 层经本卡网卡做一次分发"
                            "（fp8）和一次合并（bf16），计入每个路由副本。一个 decode 步花在专家并行通信上的时间是多少（ms）？"),),
        conventions_en="No overlap with compute; every routed copy is counted (DeepEP's logical bandwidth). GB/s = 10⁹ "
                       "B/s, µs = 10⁻⁶ s, ms = 10⁻³ s.",
        conventions_zh="不与计算重叠；计入每个路由副本（DeepEP 的逻辑带宽）。GB/s = 10⁹ B/s，µs = 10⁻⁶ s，ms = 10⁻³ s。",
        world=World(model=m),
    )


@template("moe.wide_ep_decode_chain", topic="moe",
          title="Chain: wide-EP decode: experts per GPU → bytes → EP time → experts touched",
          title_zh="追问链：宽专家并行 decode：每卡专家数 → 字节数 → EP 时间 → 用到的专家数", difficulty=3,
          target_seconds=480, source="deepseek_v3, deepep, austin2025")
def wide_ep_decode_chain(rng):
    m = _wide(rng)
    while True:
        ep = rng.choice((32, 64, 72, 96, 128, 144, 160, 256, 320))
        red = rng.choice((8, 16, 32, 64))
        if ep <= m.experts + red and (m.experts + red) % ep:
            break
    tokens = rng.choice([t for t in (8, 12, 16, 24, 32, 40, 48, 64) if _collides(m.experts, m.top_k, t)])
    alpha = rng.choice((10, 15, 20, 25, 30, 40)) * 1e-6
    nic = rng.choice((50e9, 100e9))
    return Spec(
        scenario_en=f"\"{m.name} decode on EP{ep}: how many experts per GPU, how many bytes per token over the "
                    f"network, how long per step, and how many experts does a batch of {tokens} touch?\" Dispatch in "
                    f"fp8, combine in bf16, every routed copy counted, one {nic * 8 / 1e9:.0f} Gb/s NIC per GPU.",
        scenario_zh=f"「{m.name} 在 EP{ep} 上做 decode：每卡几个专家？每个 token 走多少网络字节？每步多久？{tokens} 条序列的"
                    f"批次会用到多少专家？」分发用 fp8、合并用 bf16，计入每个路由副本，每卡一块 {nic * 8 / 1e9:.0f} Gb/s 网卡。",
        givens=_ek_givens(m) + (
            given("redundant_experts", "Redundant expert copies", "冗余专家副本数", red),
            given("ep", "Expert-parallel GPUs EP", "专家并行的 GPU 数 EP", ep),
            kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model"))) + _precision_givens(1) + (
            given("moe_layers", "MoE layers L_moe", "MoE 层数 L_moe", _moe_layers(m)),
            given("tokens", "Sequences per GPU per step (one token each)", "每卡每步的序列数（每条一个 token）", tokens),
            given("alpha", "Latency of one dispatch or combine α", "一次分发或合并的延迟 α", alpha, "time", "µs"),
            given("link_bandwidth", "NIC per GPU, one way", "每卡网卡，单向", nic, "bandwidth", "GB/s")),
        asks=(
            Ask(formula="experts_per_gpu", unit="", integer=True,
                inputs={"n_experts": m.experts, "redundant_experts": red, "ep": ep},
                prompt_en="How many expert slots does each GPU hold per MoE layer (a whole number)?",
                prompt_zh="每张卡每个 MoE 层要放多少个专家（整数）？"),
            Ask(formula="moe_a2a_bytes_per_token", unit="kB",
                inputs={"top_k": m.top_k, "d_model": m.d_model, "dispatch_bytes": 1, "combine_bytes": 2},
                prompt_en="How many bytes does one token move per MoE layer (dispatch and combine), in kB?",
                prompt_zh="一个 token 在一个 MoE 层（分发加合并）要搬多少字节（kB）？"),
            Ask(formula="ep_decode_comm_time", unit="ms",
                inputs={"moe_layers": _moe_layers(m), "tokens_per_gpu": tokens, "top_k": m.top_k, "d_model": m.d_model,
                        "dispatch_bytes": 1, "combine_bytes": 2, "alpha": alpha, "link_bandwidth": nic},
                prompt_en="With that many tokens per GPU per step, how long does one decode step spend in EP "
                          "communication (no overlap), in ms?",
                prompt_zh="每卡每步这么多 token 时，一个 decode 步花在专家并行通信上的时间是多少（不重叠，ms）？"),
            Ask(formula="moe_distinct_experts", unit="", inputs={"n_experts": m.experts, "top_k": m.top_k,
                                                                "tokens": tokens},
                prompt_en="Under uniform routing, how many of one layer's routed experts do that many tokens touch on "
                          "average?",
                prompt_zh="路由均匀时，这么多 token 平均会用到一层路由专家中的多少个？"),
        ),
        conventions_en=f"{EP_CONV_EN} µs = 10⁻⁶ s, ms = 10⁻³ s, GB/s = 10⁹ B/s.",
        conventions_zh=f"{EP_CONV_ZH}µs = 10⁻⁶ s，ms = 10⁻³ s，GB/s = 10⁹ B/s。",
        world=World(model=m),
    )


# Chips a wide-EP deployment decodes on, with the catalogue's scale-out NIC per GPU (400 Gb/s; 800 Gb/s on GB300)
DECODE_CHIPS = ("h100_sxm", "h200", "b200", "gb200", "gb300")
BOUND_MARGIN = 1.25  # one side clearly wins: the slower phase is at least 25 % slower than the other


@template("moe.decode_bound", topic="moe", title="Is this MoE decode step memory-bound or network-bound?",
          title_zh="这个 MoE decode 步是访存受限还是网络受限？", difficulty=3, target_seconds=180,
          source="deepseek_v3, deepep, austin2025")
def decode_bound(rng):
    want_network = rng.random() < 0.5  # each side about half the seeds: redraw until the draw falls on it
    for _ in range(200):
        m = _wide(rng)
        gpu = hardware.get(rng.choice(DECODE_CHIPS))
        dtype = rng.choice(("fp8", "fp8", "bf16"))
        b = DTYPE_BYTES[dtype]
        ep = rng.choice([e for e in (8, 16, 32, 64, 72, 96, 128, 144, 256, 320) if e <= m.experts])
        red = rng.choice((8, 16, 32, 64))
        tokens = rng.choice((8, 16, 24, 32, 48, 64, 96, 128, 192, 256))
        alpha = rng.choice((10, 15, 20, 25, 30, 40)) * 1e-6
        nic = gpu.scale_out_nic
        assert nic is not None  # every chip of DECODE_CHIPS has its NIC in the catalogue
        per_gpu = formulas.get("experts_per_gpu").evaluate(n_experts=m.experts, redundant_experts=red, ep=ep)
        expert_bytes = per_gpu * phi_expert(m) * b
        # the expert weights and the replicated dense part fit, and the EP group's batch touches every local expert
        fits = expert_bytes + phi_dense(m) * b <= 0.8 * gpu.memory
        touched = 1 - (1 - m.top_k / m.experts) ** (tokens * ep)
        t_mem = expert_bytes / gpu.bandwidth
        t_net = formulas.get("ep_decode_comm_time").evaluate(
            moe_layers=_moe_layers(m), tokens_per_gpu=tokens, top_k=m.top_k, d_model=m.d_model, dispatch_bytes=1,
            combine_bytes=2, alpha=alpha, link_bandwidth=nic)
        clear = max(t_net, t_mem) >= BOUND_MARGIN * min(t_net, t_mem)
        if fits and touched >= 0.95 and clear and (t_net > t_mem) == want_network:
            break
    assert nic is not None  # (the loop's last draw)
    answer = "network-bound" if t_net > t_mem else "memory-bound"
    network = Choice("network-bound", ("network bound", "comms-bound", "communication-bound", "all-to-all-bound",
                                       "network"), "网络受限")
    memory = Choice("memory-bound", ("memory bound", "hbm-bound", "bandwidth-bound", "memory"), "访存受限")
    layers, gbit = _moe_layers(m), round(nic * 8 / 1e9)
    a2a = m.top_k * m.d_model * 3  # bytes per token per MoE layer: fp8 dispatch + bf16 combine of k copies
    ms, gb = t_mem * 1e3, expert_bytes / 1e9
    lines = (f"experts per GPU = ⌈(E + E_red) / EP⌉ = ⌈({m.experts} + {red}) / {ep}⌉ = {per_gpu:.0f}",
             f"expert weights read per step = {per_gpu:.0f} × Φ_expert × {b:g} B = {per_gpu:.0f} × {phi_expert(m) / 1e9:.3g} × 10⁹ × "
             f"{b:g} B = {gb:.3g} GB; ÷ HBM {gpu.bandwidth / 1e12:.3g} TB/s = {ms:.3g} ms",
             f"all-to-all per token per MoE layer = k × d × (1 + 2) B = {m.top_k} × {m.d_model:,} × 3 B = "
             f"{a2a / 1e3:.4g} kB",
             f"EP time = L_moe × (2α + T × {a2a / 1e3:.4g} kB / W) = {layers} × (2 × {alpha * 1e6:.0f} µs + {tokens} × "
             f"{a2a / 1e3:.4g} kB / {nic / 1e9:.0f} GB/s) = {t_net * 1e3:.3g} ms",
             f"{t_net * 1e3:.3g} ms {'>' if t_net > t_mem else '<'} {ms:.3g} ms: {answer}")
    lines_zh = (f"每卡专家数 = ⌈(E + E_red) / EP⌉ = ⌈({m.experts} + {red}) / {ep}⌉ = {per_gpu:.0f}",
                f"每步读取的专家权重 = {per_gpu:.0f} × Φ_expert × {b:g} B = {per_gpu:.0f} × {phi_expert(m) / 1e9:.3g} × 10⁹ × {b:g} B = "
                f"{gb:.3g} GB；÷ HBM {gpu.bandwidth / 1e12:.3g} TB/s = {ms:.3g} ms",
                f"每个 token 每个 MoE 层的 All-to-All = k × d × (1 + 2) B = {m.top_k} × {m.d_model:,} × 3 B = "
                f"{a2a / 1e3:.4g} kB",
                f"EP 时间 = L_moe × (2α + T × {a2a / 1e3:.4g} kB / W) = {layers} × (2 × {alpha * 1e6:.0f} µs + {tokens} × "
                f"{a2a / 1e3:.4g} kB / {nic / 1e9:.0f} GB/s) = {t_net * 1e3:.3g} ms",
                f"{t_net * 1e3:.3g} ms {'>' if t_net > t_mem else '<'} {ms:.3g} ms："
                f"{network.label_zh if t_net > t_mem else memory.label_zh}")
    return Spec(
        scenario_en=f"{m.name} decodes in {dtype} on {gpu.name} GPUs with expert parallelism over EP{ep} ({red} "
                    f"redundant expert copies), {tokens} tokens per GPU per step, one {gbit} Gb/s NIC per GPU.",
        scenario_zh=f"{m.name} 在 {gpu.name} 上以 {dtype} 做 decode，专家并行 EP{ep}（{red} 个冗余专家副本），每卡每步 {tokens} "
                    f"个 token，每卡一块 {gbit} Gb/s 网卡。",
        givens=_ek_givens(m) + (
            given("redundant_experts", "Redundant expert copies", "冗余专家副本数", red),
            given("ep", "Expert-parallel GPUs EP", "专家并行的 GPU 数 EP", ep),
            given("phi_expert", "Φ_expert (one expert, all MoE layers)", "Φ_expert（单个专家，所有 MoE 层）", phi_expert(m)),
            given("bytes_per_param", f"Bytes per weight ({dtype})", f"每个权重的字节数（{dtype}）", b, "bytes", "B"),
            kit.chip(gpu, "bandwidth"),
            kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model")),
            given("moe_layers", "MoE layers L_moe", "MoE 层数 L_moe", layers),
            given("tokens_per_gpu", "Tokens per GPU per step T", "每卡每步的 token 数 T", tokens),
            given("alpha", "Latency of one dispatch or combine α", "一次分发或合并的延迟 α", alpha, "time", "µs"),
            given("link_bandwidth", f"NIC per GPU, one way ({gbit} Gb/s)", f"每卡网卡，单向（{gbit} Gb/s）", nic,
                  "bandwidth", "GB/s")),
        asks=(Ask(choices=(network, memory), answer=answer,
                  prompt_en="Which bounds one decode step of the MoE layers: reading each GPU's expert weights from HBM "
                            "(memory-bound) or the all-to-all dispatch and combine over the NIC (network-bound)?",
                  prompt_zh="一个 decode 步的 MoE 部分受什么限制：每卡从 HBM 读自己的专家权重（访存受限），还是经网卡做 All-to-All "
                            "分发与合并（网络受限）？请回答「访存受限」或「网络受限」。",
                  explanation=lines, explanation_zh=lines_zh,
                  takeaway="wide EP buys memory time by spreading the experts thin, and pays it back in all-to-all: "
                           "past a few experts per GPU the NIC, not HBM, sets the decode step, which is why DeepSeek "
                           "overlaps dispatch and combine with compute.",
                  takeaway_zh="宽专家并行把专家摊薄来省访存时间，却要用 All-to-All 来还：每卡只剩几个专家时，决定 decode 步时长的是网卡"
                              "而不是 HBM，所以 DeepSeek 要让分发与合并和计算重叠。",
                  card_formulas=("experts_per_gpu", "ep_decode_comm_time")),),
        conventions_en=f"{EP_CONV_EN} The EP group's batch touches every expert a GPU holds; each is read once per step. "
                       "Every routed copy is counted (DeepEP's logical bandwidth); no overlap of the two phases. "
                       "µs = 10⁻⁶ s, ms = 10⁻³ s, GB/s = 10⁹ B/s, TB/s = 10¹² B/s.",
        conventions_zh=f"{EP_CONV_ZH}EP 组的批次会用到每张卡上的所有专家，每个专家每步读一次。计入每个路由副本（DeepEP 的逻辑带宽）；"
                       "两个阶段不重叠。µs = 10⁻⁶ s，ms = 10⁻³ s，GB/s = 10⁹ B/s，TB/s = 10¹² B/s。",
        world=World(model=m, gpu=gpu, precision=dtype),
    )
