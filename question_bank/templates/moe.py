"""Mixture-of-experts templates: total against active parameters, All-to-All, expert capacity.

Mixture-of-experts templates: total against active parameters (memory against FLOPs),
the All-to-All of expert parallelism, and expert capacity.

Models are the catalogue's MoE models (Mixtral-8x7B/8x22B, Qwen3-235B-A22B, DeepSeek-V3) with their real
configs.  Φ_expert is one routed expert's parameters summed over the MoE layers (3 × d_model × d_expert per
layer, a gated MLP); Φ_dense is everything else (attention, embeddings, routers, dense MLPs, shared experts),
the published total minus the routed experts.  Both are given rounded to 3 significant figures and every
answer is computed from the figures as shown.
"""

from __future__ import annotations

from engine.units import fmt_number, round_sig

from .. import hardware, kit, models
from ..hardware import DTYPE_BYTES
from ..models import Model
from ..spec import Ask, Ref, Spec, World, given
from ..template import template
from .chip_givens import CONV_EN, CONV_ZH

MOE_CONV_EN = ("Φ_expert is one routed expert's parameters summed over all MoE layers; Φ_dense is everything else "
               "(attention, embeddings, routers, dense layers, shared experts). Parameter counts are plain numbers "
               "(46.7B = 4.67e10).")
MOE_CONV_ZH = ("Φ_expert 是一个路由专家在所有 MoE 层上的参数之和；Φ_dense 是其余的一切（注意力、词嵌入、路由器、稠密层、"
               "共享专家）。参数量是普通计数（46.7B = 4.67e10）。")
# the dense part is 2-4 % of an MoE model's total: counting only the experts must not grade correct
TOTAL_TOLERANCE = 0.01


def phi_dense(m: Model) -> float:
    return round_sig(m.dense_params, 3)


def phi_expert(m: Model) -> float:
    return round_sig(m.expert_params, 3)


HYPOTHETICAL = "a hypothetical MoE model"


def _hypothetical_moe(rng) -> Model:
    """A made-up MoE config (gated experts, every layer MoE) whose dense part is 1.5 %+ of the total."""
    while True:
        layers, d = rng.choice((24, 32, 40, 48, 64)), rng.choice((2048, 3072, 4096, 5120, 6144))
        ffn, experts = rng.choice((512, 1024, 1536, 2048, 4096, 8192)), rng.choice((8, 16, 32, 64, 128, 256))
        top_k = rng.choice([k for k in (1, 2, 4, 6, 8) if 4 * k <= experts])
        expert = layers * 3 * d * ffn
        dense = round_sig(rng.choice((0.05, 0.08, 0.1, 0.15, 0.2, 0.3)) * experts * expert, 2)
        # counting only the experts (total or active) or one expert per token must not land within tolerance
        active = dense + top_k * expert
        if (dense / (dense + experts * expert) > 0.015 and dense / active > 0.06
                and (top_k == 1 or (top_k - 1) * expert / active > 0.06)):
            return Model("hypothetical_moe", HYPOTHETICAL, layers, d, d // 128, d // 128, 128, ffn, 32000,
                         dense + experts * expert, True, "made up for the problem", experts=experts, top_k=top_k)


def _pick(rng) -> Model:
    return rng.choice(models.MOE_MODELS) if rng.random() < 0.5 else _hypothetical_moe(rng)


def name_zh(m: Model) -> str:
    return "一个假想的 MoE 模型" if m.name == HYPOTHETICAL else m.name


def _moe_givens(m: Model) -> tuple:
    return (given("model", "Model", "模型", m.name, value_zh=name_zh(m)),
            given("phi_dense", "Φ_dense (outside the routed experts)", "Φ_dense（路由专家以外）", phi_dense(m)),
            given("phi_expert", "Φ_expert (one expert, all MoE layers)", "Φ_expert（单个专家，所有 MoE 层）",
                  phi_expert(m)),
            given("n_experts", "Routed experts per MoE layer E", "每个 MoE 层的路由专家数 E", m.experts),
            given("top_k", "Experts per token k", "每个 token 激活的专家数 k", m.top_k))


def _shared_note(m: Model) -> tuple[str, str]:
    if not m.shared_experts:
        return "", ""
    n = m.shared_experts
    return (f" ({m.name} also has {n} shared expert{'s' if n > 1 else ''} per MoE layer that every token uses: "
            f"{'they are' if n > 1 else 'it is'} inside Φ_dense.)",
            f"（{m.name} 每个 MoE 层还有 {m.shared_experts} 个所有 token 都会用到的共享专家：它算在 Φ_dense 里。）")


@template("moe.total_params", topic="moe", title="Total parameters of an MoE model",
          title_zh="MoE 模型的总参数量", difficulty=1, target_seconds=60, source="jiang2024, deepseek_v3")
def total_params(rng):
    m = _pick(rng)
    note_en, note_zh = _shared_note(m)
    return Spec(
        givens=_moe_givens(m)[:4],
        asks=(Ask(formula="moe_total_params", unit="", tolerance=TOTAL_TOLERANCE,
                  prompt_en=f"Total parameters = Φ_dense + E × Φ_expert: every expert must sit in memory. How many "
                            f"parameters does {m.name} store?{note_en}",
                  prompt_zh=f"总参数量 = Φ_dense + E × Φ_expert：所有专家都要放在显存里。{name_zh(m)} 一共存了多少参数？{note_zh}"),),
        conventions_en=MOE_CONV_EN, conventions_zh=MOE_CONV_ZH,
        world=World(model=m),
    )


@template("moe.total_params_config", topic="moe", title="Total parameters of an MoE model from its config",
          title_zh="由配置推出 MoE 模型的总参数量", difficulty=3, target_seconds=120, source="jiang2024, deepseek_v3")
def total_params_config(rng):
    m = _pick(rng)
    moe_layers = m.moe_layers or m.layers
    per_layer = 3 * m.d_model * m.ffn
    pe = moe_layers * per_layer
    note_en, note_zh = _shared_note(m)
    first = m.layers - moe_layers
    dense_en = ("" if not first else f" The first {first} of the {m.layers} layers have a dense MLP (in Φ_dense)."
                if first > 1 else f" The first of the {m.layers} layers has a dense MLP (in Φ_dense).")
    dense_zh = f"{m.layers} 层里的前 {first} 层是稠密 MLP（算在 Φ_dense 里）。" if first else ""
    return Spec(
        givens=(given("model", "Model", "模型", m.name, value_zh=name_zh(m)),
                given("moe_layers", "MoE layers", "MoE 层数", moe_layers),
                kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model")),
                given("d_expert", "Expert MLP inner size d_expert", "专家 MLP 的中间维度 d_expert", m.ffn),
                given("n_experts", "Routed experts per MoE layer E", "每个 MoE 层的路由专家数 E", m.experts),
                _moe_givens(m)[1]),
        asks=(Ask(formula="moe_total_params", unit="", tolerance=TOTAL_TOLERANCE,
                  inputs={"phi_dense": phi_dense(m), "phi_expert": pe, "n_experts": m.experts},
                  explanation=(f"one expert in one layer is a gated MLP: gate, up and down projections, 3 matrices "
                               f"of d_model × d_expert = 3 × {m.d_model:,} × {m.ffn:,} = {per_layer:,} "
                               "parameters",
                               f"Φ_expert = MoE layers × 3 × d_model × d_expert = {moe_layers} × {per_layer:,} = "
                               f"{pe:,} (one expert, all MoE layers)"),
                  explanation_zh=(f"一个专家在一层里是一个带门控的 MLP：gate、up、down 三个投影，3 个 d_model × d_expert 的"
                                  f"矩阵 = 3 × {m.d_model:,} × {m.ffn:,} = {per_layer:,} 个参数",
                                  f"Φ_expert = MoE 层数 × 3 × d_model × d_expert = {moe_layers} × {per_layer:,} = "
                                  f"{pe:,}（单个专家，所有 MoE 层）"),
                  prompt_en=f"Each expert of {m.name} is a gated (SwiGLU) MLP: 3 matrices of d_model × d_expert per "
                            f"MoE layer.{dense_en} Work out Φ_expert, then the total parameter count.{note_en}",
                  prompt_zh=f"{name_zh(m)} 的每个专家都是带门控（SwiGLU）的 MLP：每个 MoE 层 3 个 d_model × d_expert 的矩阵。"
                            f"{dense_zh}先算出 Φ_expert，再求总参数量。{note_zh}"),),
        conventions_en=MOE_CONV_EN, conventions_zh=MOE_CONV_ZH,
        world=World(model=m),
    )


@template("moe.active_params", topic="moe", title="Active parameters per token of an MoE model",
          title_zh="MoE 模型每个 token 的激活参数量", difficulty=2, target_seconds=75, source="jiang2024, deepseek_v3")
def active_params(rng):
    m = _pick(rng)
    note_en, note_zh = _shared_note(m)
    return Spec(
        givens=_moe_givens(m),
        asks=(Ask(formula="moe_active_params", unit="",
                  prompt_en=f"Each token of {m.name} goes through the dense part and its top-{m.top_k} experts. How many "
                            f"parameters does one token use (what its FLOPs are counted from)?{note_en}",
                  prompt_zh=f"{name_zh(m)} 的每个 token 经过稠密部分和它的 top-{m.top_k} 个专家。一个 token 用到多少参数"
                            f"（它的 FLOPs 就按这个算）？{note_zh}"),),
        conventions_en=MOE_CONV_EN, conventions_zh=MOE_CONV_ZH,
        world=World(model=m),
    )


A2A_CONV_EN = ("Expert parallelism: the experts of each MoE layer are spread evenly over the N GPUs of the group; "
               "routing is uniform, so (N − 1)/N of each token's copies go to another GPU. Forward pass: one "
               "All-to-All dispatches each token's hidden vector to its k experts, a second one combines the results; "
               "both carry the given precision.")
A2A_CONV_ZH = ("专家并行：每个 MoE 层的专家均匀分布在组内 N 张 GPU 上；路由是均匀的，所以每个 token 的各个副本有 (N − 1)/N "
               "要发往别的 GPU。前向：一次 All-to-All 把每个 token 的隐藏向量分发（dispatch）给它的 k 个专家，"
               "第二次把结果合并（combine）回来；两次都用给定精度。")


def _ep_setup(rng):
    """A model, an expert-parallel group of N GPUs whose memory holds the weights at ``dtype`` (80 GB+ cards of
    that precision), the tokens per GPU and the precision (bf16, or fp8 as DeepSeek-V3 and Qwen3 also ship)."""
    while True:
        m = rng.choice(models.MOE_MODELS)
        n = rng.choice([e for e in (4, 8, 16, 32, 64) if e <= m.experts and m.experts % e == 0])
        dtype = "bf16" if m.key.startswith("mixtral") else rng.choice(("bf16", "fp8"))
        gpu = rng.choice([g for g in hardware.GPUS if g.memory >= 80e9 and g.supports(dtype)])
        if m.params * DTYPE_BYTES[dtype] / n <= 0.85 * gpu.memory:
            return m, n, rng.choice((256, 512, 1024, 2048, 4096, 8192, 16384)), dtype, gpu


@template("moe.alltoall_bytes", topic="moe", title="Expert-parallel All-to-All bytes per layer",
          title_zh="专家并行下每个 MoE 层的 All-to-All 字节数", difficulty=2, target_seconds=120,
          source="lepikhin2020, deepseek_v3")
def alltoall_bytes(rng):
    m, n, tokens, dtype, gpu = _ep_setup(rng)
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("tokens", "Tokens on this GPU T", "本卡上的 token 数 T", tokens),
                given("top_k", "Experts per token k", "每个 token 激活的专家数 k", m.top_k),
                kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model")),
                given("dtype", "Precision of the exchanged activations", "交换的激活的精度", dtype),
                given("bytes_per_elem", "Bytes per element", "每元素字节数", DTYPE_BYTES[dtype], "bytes"),
                given("n", "Expert-parallel GPUs N", "专家并行的 GPU 数 N", n)),
        asks=(Ask(formula="moe_alltoall_bytes", unit="MB",
                  prompt_en=f"{m.name}'s {m.experts} experts per layer are spread over {n} {gpu.name} GPUs. How many bytes does "
                            "each GPU send per MoE layer in the forward pass (dispatch and combine), in MB?",
                  prompt_zh=f"{m.name} 每层的 {m.experts} 个专家分布在 {n} 张 {gpu.name} 上。前向时每张 GPU 在每个 MoE 层要发送多少字节"
                            "（分发加合并，MB）？"),),
        conventions_en=f"{A2A_CONV_EN} MB = 1e6 B.", conventions_zh=f"{A2A_CONV_ZH}MB = 1e6 B。",
        world=World(model=m, gpu=gpu, precision=dtype, n_gpus=n, holds=("weights",)),
    )


CAPACITY_CONV_EN = ("Expert capacity (Switch Transformer, GShard): each expert processes at most "
                    "ceil(capacity factor × T × k ÷ E) tokens per batch; tokens routed beyond it overflow (are dropped "
                    "or rerouted).")
CAPACITY_CONV_ZH = ("专家容量（Switch Transformer、GShard）：每个专家每个 batch 最多处理 ceil(容量因子 × T × k ÷ E) 个 token；"
                    "超出的 token 溢出（被丢弃或改路由）。")


@template("moe.expert_capacity", topic="moe", title="Expert capacity with a capacity factor",
          title_zh="给定容量因子时的专家容量", difficulty=2, target_seconds=75, source="fedus2021, lepikhin2020")
def expert_capacity(rng):
    while True:  # a capacity under 10,000 slots (shown in full); round inputs, so the arithmetic is exact by hand
        m = rng.choice(models.MOE_MODELS)
        tokens = rng.choice((2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 16000, 24000, 32000))  # 3 figures
        cf = rng.choice((1.1, 1.25, 1.5, 2.0))
        if cf * tokens * m.top_k / m.experts < 9999:
            break
    return Spec(
        givens=(given("model", "Model", "模型", m.name), given("tokens", "Tokens in the batch T", "batch 中的 token 数 T", tokens),
                given("top_k", "Experts per token k", "每个 token 激活的专家数 k", m.top_k),
                given("n_experts", "Routed experts E", "路由专家数 E", m.experts),
                given("capacity_factor", "Capacity factor", "容量因子", cf, "ratio")),
        asks=(Ask(formula="moe_expert_capacity", unit="", integer=True,
                  prompt_en=f"You train with {m.name}'s routing (top-{m.top_k} of {m.experts}) in a framework that enforces "
                            f"expert capacity, with a capacity factor of {cf:g}. How many token slots does each expert get "
                            "per batch (a whole number)?",
                  prompt_zh=f"你在一个限制专家容量的训练框架里使用 {m.name} 的路由方式（{m.experts} 选 {m.top_k}），容量因子为 "
                            f"{cf:g}。每个专家每个 batch 有多少个 token 槽位（整数）？"),),
        conventions_en=CAPACITY_CONV_EN, conventions_zh=CAPACITY_CONV_ZH,
        world=World(model=m),
    )


@template("moe.chain_moe_vs_dense", topic="moe",
          title="Chain: MoE vs dense: memory, FLOPs, All-to-All",
          title_zh="追问链：MoE 与稠密模型：总参数 → 激活参数 → 显存 → 每 token FLOPs → All-to-All", difficulty=3,
          target_seconds=540, source="jiang2024, deepseek_v3, lepikhin2020")
def chain_moe_vs_dense(rng):
    m, n, tokens, dtype, gpu = _ep_setup(rng)
    bpe = DTYPE_BYTES[dtype]
    pd, pe = phi_dense(m), phi_expert(m)
    active = pd + m.top_k * pe
    return Spec(
        scenario_en=f"\"{m.name} has the FLOPs of a ~{fmt_number(round_sig(active / 1e9, 2))}B dense model. Is it as "
                    f"cheap to serve?\" Weights in {dtype}; experts spread over {n} × {gpu.name} (expert parallelism).",
        scenario_zh=f"「{m.name} 的 FLOPs 相当于约 {fmt_number(round_sig(active / 1e9, 2))}B 参数的稠密网络。部署起来也一样便宜吗？」"
                    f"权重为 {dtype}；专家分布在 {n} 张 {gpu.name} 上（专家并行）。",
        givens=_moe_givens(m) + (
            given("bytes_per_param", f"Bytes per parameter ({dtype})", f"每参数字节数（{dtype}）", bpe, "bytes"),
            given("tokens", "Tokens per GPU per step T", "每张 GPU 每步的 token 数 T", tokens),
            kit.model(m, "d_model", label=("Hidden size d_model", "隐藏维度 d_model")),
            given("n", "Expert-parallel GPUs N", "专家并行的 GPU 数 N", n)),
        asks=(
            Ask(formula="moe_total_params", unit="", tolerance=TOTAL_TOLERANCE,
                prompt_en="How many parameters does the model store in all?", prompt_zh="模型一共存了多少参数？"),
            Ask(formula="moe_active_params", unit="",
                prompt_en="How many parameters are active per token (what one token multiplies through)?",
                prompt_zh="每个 token 的激活参数（一个 token 实际乘过的参数）有多少？"),
            Ask(formula="weights_bytes", unit="GB", inputs={"phi": Ref(0), "bytes_per_param": bpe},
                extras={"phi_active": Ref(1)},
                decomposition=("memory holds every expert, active or not: the total Φ (step 1), not the active "
                               "{phi_active}, × bytes per parameter",),
                decomposition_zh=("显存要装下每个专家，不管它激活与否：用总参数 Φ（第 1 步），而不是激活参数 {phi_active}，"
                                  "× 每参数字节数",),
                takeaway=f"for memory an MoE is as big as its total: {m.name} needs the weights of all {m.experts} "
                         "experts resident, {result}, as a dense model of that size would.",
                takeaway_zh=f"从显存看，MoE 就有它的总参数那么大：{name_zh(m)} 的 {m.experts} 个专家的权重都要常驻显存，"
                            "共 {result}，和同样大小的稠密模型一样。",
                prompt_en="How much memory do the weights take across the GPUs, in GB?",
                prompt_zh="权重在所有 GPU 上一共占多少显存（GB）？"),
            Ask(formula="forward_flops_per_token", unit="GFLOP", inputs={"phi": Ref(1)}, extras={"phi_total": Ref(0)},
                decomposition=("a token multiplies through the active parameters only (step 2), 2 FLOPs each (a "
                               "multiply and an add): the idle experts cost no FLOPs",),
                decomposition_zh=("一个 token 只用到激活参数（第 2 步），每个 2 FLOPs（一次乘、一次加）：闲置的专家不花 FLOPs",),
                takeaway="for FLOPs an MoE is as small as its active part: the compute of a dense model of {phi} "
                         "parameters, on the memory of one of {phi_total}.",
                takeaway_zh="从 FLOPs 看，MoE 只有激活部分那么大：算力开销相当于 {phi} 参数的稠密模型，显存却要按 "
                            "{phi_total} 参数来放。",
                prompt_en="How many FLOPs does a forward pass spend per token (2 FLOPs per active parameter), in GFLOP?",
                prompt_zh="前向每个 token 花多少 FLOPs（每个激活参数 2 FLOPs），单位 GFLOP？"),
            Ask(formula="moe_alltoall_bytes", unit="MB",
                inputs={"tokens": tokens, "top_k": m.top_k, "d_model": m.d_model, "bytes_per_elem": bpe, "n": n},
                prompt_en="A dense model needs no All-to-All. How many bytes does each GPU send per MoE layer in the "
                          "forward pass (dispatch and combine), in MB?",
                prompt_zh="稠密模型不需要 All-to-All。前向时每张 GPU 在每个 MoE 层要发送多少字节（分发加合并，MB）？"),
        ),
        conventions_en=f"{CONV_EN} {MOE_CONV_EN} {A2A_CONV_EN} MB = 1e6 B, GFLOP = 1e9 FLOP.",
        conventions_zh=f"{CONV_ZH}{MOE_CONV_ZH}{A2A_CONV_ZH}MB = 1e6 B，GFLOP = 1e9 FLOP。",
        world=World(model=m, gpu=gpu, precision=dtype, n_gpus=n, holds=("weights",)),
    )
