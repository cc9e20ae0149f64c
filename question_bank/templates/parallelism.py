"""Parallelism-planning templates: memory and layouts under TP × PP × DP, and their traffic.

Parallelism-planning templates: static memory under TP × PP × DP with ZeRO, choosing a layout (the
``layout`` answer kind, engine.layout), tensor-parallel communication on NVLink vs InfiniBand, sequence
parallelism's volume, gradient accumulation and the global batch, and the per-GPU batch that hides
data-parallel gradient traffic.  Sources: ZeRO (Rajbhandari et al. 2020), Megatron-LM (Shoeybi et al.
2019; Narayanan et al. 2021), Korthikanti et al. 2022.

The global batch is always a whole number of micro-batches × data-parallel replicas: a setup that does not
divide is never generated.
"""

from __future__ import annotations

from engine import convention_set as cs
from engine import formulas
from engine.choices import Choice
from engine.langs import EN, ZH
from engine.layout import LayoutRules
from engine.messages import pick
from engine.units import fmt_number, fmt_quantity

from .. import hardware, kit, models
from ..spec import Ask, Ref, Spec, World, given
from ..template import convention, template
from .model_params import nominal_phi, phi_given, phi_text, unit_for

# Training GPUs on an NVLink node of 8 (DGX/HGX), with their NVLink generation.
NODE_GPUS = tuple(g for g in hardware.GPUS if hardware.nvlink_of(g) is not None and g.memory >= 80e9)
CLUSTERS = (16, 32, 64, 128, 256, 512, 1024)
# Dense models big enough to need model parallelism, with a head count every TP degree divides.
BIG = tuple(m for m in models.DENSE if m.params >= 13e9 and m.n_heads % 8 == 0)
PER_NODE = hardware.GPUS_PER_NODE

ZERO_NAME = {1: "ZeRO-1", 2: "ZeRO-2", 3: "ZeRO-3"}
ZERO_WHAT_EN = {1: "the optimizer states", 2: "the optimizer states and gradients",
                3: "the optimizer states, gradients and weights"}
ZERO_WHAT_ZH = {1: "优化器状态", 2: "优化器状态和梯度", 3: "优化器状态、梯度和权重"}


def zero_shown(stage: int) -> str:
    """``(4Φ + 12Φ/N_dp) / (TP·PP)`` under the problem's bytes_per_param (its recipe's split)."""
    w, g, o = cs.split(convention("bytes_per_param"))
    return {1: f"({w + g}Φ + {o}Φ/N_dp) / (TP·PP)", 2: f"({w}Φ + {g + o}Φ/N_dp) / (TP·PP)",
            3: f"{w + g + o}Φ / (N_dp·TP·PP)"}[stage]


STATIC_EN = ("bf16 mixed precision with AdamW: per parameter 2 B weights + 2 B gradients + 12 B fp32 optimizer "
             "states. Tensor and pipeline parallelism split the model evenly, so each GPU holds 1/(TP·PP) of the "
             "parameters; ZeRO shards the named states of that slice over the N_dp data-parallel replicas. "
             "Activations and buffers are not counted. GB = 10⁹ B.")
STATIC_ZH = ("bf16 混合精度 + AdamW：每个参数 2 B 权重 + 2 B 梯度 + 12 B fp32 优化器状态。张量并行和流水线并行均匀切分"
             "模型，每张卡持有 1/(TP·PP) 的参数；ZeRO 再把这一份中指定的状态在 N_dp 个数据并行副本间切分。"
             "不计激活值和缓冲区。GB = 10⁹ B。")



def static_text(lang: str) -> str:
    """:data:`STATIC_EN` / :data:`STATIC_ZH` with the bytes per parameter of the problem's bytes_per_param."""
    w, g, o = cs.split(convention("bytes_per_param"))
    value = convention("bytes_per_param")
    text = pick(lang, STATIC_EN, STATIC_ZH)
    if value in cs.RECIPE_OPTIMIZER:  # not AdamW's fp32 states: the recipe's own words
        text = text.replace(" with AdamW", "").replace(" + AdamW", "")
        return text.replace("2 B 梯度 + 12 B fp32 优化器状态", f"{g} B 梯度 + {cs.optimizer_words(value, ZH)}").replace(
            "2 B gradients + 12 B fp32 optimizer states", f"{g} B gradients + {cs.optimizer_words(value, EN)}")
    return text.replace("2 B 梯度 + 12 B", f"{g} B 梯度 + {o} B").replace("2 B gradients + 12 B", f"{g} B gradients + {o} B")


def _gpus_text(n: int, gpu) -> tuple[str, str]:
    return f"{n} {gpu.name} GPUs ({PER_NODE} per node, NVLink inside a node)", \
        f"{n} 张 {gpu.name}（每节点 {PER_NODE} 张，节点内 NVLink 互联）"


def _degree_givens(tp: int, pp: int, dp: int) -> tuple:
    return (given("tp", "Tensor-parallel degree TP", "张量并行度 TP", tp),
            given("pp", "Pipeline-parallel degree PP", "流水线并行度 PP", pp),
            given("n_dp", "Data-parallel degree N_dp", "数据并行度 N_dp", dp))


def _zero_parallel_spec(rng, formula_given: bool) -> Spec:
    while True:  # a layout that fits: the static state leaves at least 20 % of the GPU for activations
        model, gpu = rng.choice(BIG), rng.choice(NODE_GPUS)
        phi = nominal_phi(model)
        stage = rng.choice((1, 2, 3))
        n = rng.choice([c for c in CLUSTERS if c <= 512])
        tp = rng.choice((2, 4, 8))
        pp = rng.choice([p for p in (1, 2, 4, 8) if model.layers % p == 0 and tp * p < n])
        dp = n // (tp * pp)
        static = formulas.get(f"zero{stage}_parallel_bytes").evaluate(phi=phi, tp=tp, pp=pp, n_dp=dp,
                                                                     recipe=cs.recipe_bytes(convention("bytes_per_param")))
        if static <= 0.8 * gpu.memory:
            break
    hint_en = f" Per GPU that is {zero_shown(stage)}." if formula_given else ""
    hint_zh = f"每卡静态显存为 {zero_shown(stage)}。" if formula_given else ""
    where_en, where_zh = _gpus_text(n, gpu)
    return Spec(
        givens=(phi_given(phi),) + _degree_givens(tp, pp, dp),
        asks=(Ask(formula=f"zero{stage}_parallel_bytes", unit="GB",
                  prompt_en=f"{model.name} (Φ = {phi_text(phi)}) is trained on {where_en} as TP = {tp} × PP = {pp} × "
                            f"DP = {dp}, with {ZERO_NAME[stage]} sharding {ZERO_WHAT_EN[stage]} over the data-parallel "
                            f"replicas.{hint_en} How much static memory does each GPU hold, in GB?",
                  prompt_zh=f"{model.name}（Φ = {phi_text(phi)}）在 {where_zh}上按 TP = {tp} × PP = {pp} × DP = {dp} 训练，"
                            f"用 {ZERO_NAME[stage]} 在数据并行副本间切分{ZERO_WHAT_ZH[stage]}。{hint_zh}"
                            "每张卡的静态显存是多少（GB）？"),),
        conventions_en=static_text(EN), conventions_zh=static_text(ZH),
        world=World(model=model, gpu=gpu, precision="bf16", n_gpus=tp * pp, tp=tp, pp=pp, n_dp=dp),
    )


@template("parallelism.zero_parallel_given", topic="parallelism",
          title="Static memory per GPU under TP × PP × DP with ZeRO (formula given)",
          title_zh="TP × PP × DP 加 ZeRO 的每卡静态显存（给出公式）", difficulty=1, target_seconds=75,
          source="rajbhandari2020, narayanan2021", conventions=("bytes_per_param",))
def zero_parallel_given(rng):
    return _zero_parallel_spec(rng, formula_given=True)


@template("parallelism.zero_parallel", topic="parallelism", title="Static memory per GPU under TP × PP × DP with ZeRO",
          title_zh="TP × PP × DP 加 ZeRO 的每卡静态显存", difficulty=2, target_seconds=120,
          source="rajbhandari2020, narayanan2021", conventions=("bytes_per_param",))
def zero_parallel(rng):
    return _zero_parallel_spec(rng, formula_given=False)


# --------------------------------------------------------------------------- #
# Choosing a layout


def _layout_setup(rng, need_pipeline: bool = False):
    """A model, GPU, cluster and static-memory budget where some layouts fit and plain DP does not."""
    while True:
        model, gpu = rng.choice(BIG), rng.choice(NODE_GPUS)
        n = rng.choice(CLUSTERS[1:] if need_pipeline else CLUSTERS)
        reserve = rng.choice((0.25, 0.375, 0.5))  # share of memory kept for activations and buffers
        budget = round(gpu.memory * (1 - reserve) / 5e9) * 5e9
        rules = LayoutRules(n, PER_NODE, model.layers, nominal_phi(model), "zero1_parallel_bytes", budget,
                            inputs=(("recipe", cs.recipe_bytes(convention("bytes_per_param"))),))
        valid = rules.valid()
        if not valid or len(valid) > 12 or not rules.broken(type(valid[0])(1, 1, n)):
            continue
        team = [v for v in valid if v.pp >= 2 and v.dp >= 2]
        if need_pipeline and not team:
            continue
        return model, gpu, n, budget, rules, team


def _gb(x: float) -> str:
    return fmt_quantity(x, "bytes", unit="GB")


def _layout_reasoning(rules: LayoutRules) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """How a strong candidate picks the layout (ZeRO-1): the optimizer share oΦ/N (12Φ/N at 16 B per parameter)
    does not depend on the layout, so TP·PP must make the replicated (w + g)Φ/(TP·PP) fit the rest; TP fills a node,
    then the smallest PP, DP = the rest.  w, g, o: the problem's bytes per parameter split (its recipe)."""
    chosen = rules.preferred()
    assert chosen is not None  # _layout_setup drew rules some layout meets
    tp, pp, dp = chosen
    n, phi, budget = rules.n_gpus, rules.phi, rules.budget_bytes
    w, g, o = cs.split(convention("bytes_per_param"))
    kept = w + g  # bytes per parameter every data-parallel replica keeps whole under ZeRO-1
    # what ZeRO-1 shards: AdamW's 12 B, and the fp32 main gradient where the recipe keeps one (20 B per parameter)
    value = convention("bytes_per_param")
    sharded_en, sharded_zh = cs.RECIPE_OPTIMIZER_NAME.get(value) or (
        ("AdamW states", "AdamW 状态") if o == 12 else ("AdamW states and fp32 main gradient", "AdamW 状态和 fp32 主梯度"))
    opt, room = o * phi / n, budget - o * phi / n
    need = kept * phi / room
    mp = tp * pp
    tried = [p for p in range(1, pp) if rules.layers % p == 0 and (n // tp) % p == 0]
    over = [(p, _gb(rules.memory(type(chosen)(tp, p, n // (tp * p))))) for p in tried]
    too_big, too_big_zh = "; ".join(f"PP = {p}: {m}" for p, m in over), "；".join(f"PP = {p}：{m}" for p, m in over)
    fits = _gb(rules.memory(chosen))
    en = (f"ZeRO-1 per GPU = ({kept}Φ + {o}Φ/DP) / (TP·PP) = {kept}Φ/(TP·PP) + {o}Φ/N, because TP·PP·DP = N: the "
          f"sharded {sharded_en} cost {o}Φ/N = {_gb(opt)} per GPU whatever the layout, so the replicated weights "
          f"and gradients must fit in {_gb(budget)} − {_gb(opt)} = {_gb(room)}",
          f"so TP·PP ≥ {kept}Φ / {_gb(room)} = {_gb(kept * phi)} / {_gb(room)} = {fmt_number(need, 3)}",
          f"TP first, as large as a node allows: TP = {tp} (≤ {rules.gpus_per_node} GPUs per node; its two AllReduces "
          "per layer need NVLink)",
          (f"then the smallest PP that divides the {rules.layers} layers and fits: " + (f"{too_big} (over budget); " if tried else "")
           + f"PP = {pp}, TP·PP = {mp}: {fits} ≤ {_gb(budget)}"),
          f"DP = the rest: N / (TP·PP) = {n} / {mp} = {dp}")
    zh = (f"ZeRO-1 每卡 = ({kept}Φ + {o}Φ/DP) / (TP·PP) = {kept}Φ/(TP·PP) + {o}Φ/N，因为 TP·PP·DP = N：切分后的 {sharded_zh}"
          f"每卡占 {o}Φ/N = {_gb(opt)}，与布局无关；复制的权重和梯度只能放进剩下的 {_gb(budget)} − {_gb(opt)} = {_gb(room)}",
          f"所以 TP·PP ≥ {kept}Φ / {_gb(room)} = {_gb(kept * phi)} / {_gb(room)} = {fmt_number(need, 3)}",
          f"先定 TP，在节点内取最大：TP = {tp}（≤ 每节点 {rules.gpus_per_node} 张卡；每层两次 AllReduce 需要 NVLink）",
          (f"再取能整除 {rules.layers} 层且放得下的最小 PP：" + (f"{too_big_zh}（超出预算）；" if tried else "")
           + f"PP = {pp}，TP·PP = {mp}：{fits} ≤ {_gb(budget)}"),
          f"DP 取剩下的：N / (TP·PP) = {n} / {mp} = {dp}")
    return en, zh


LAYOUT_TAKEAWAY = ("TP inside the node, PP only as deep as memory needs (every stage adds bubble), DP for the rest: the "
                   "Megatron-LM recipe for 3D parallelism.",
                   "TP 放在节点内，PP 只加到显存放得下为止（每多一级都多一份气泡），剩下的全给数据并行：这就是 Megatron-LM 的 "
                   "3D 并行配方。")


def _layout_ask(model, gpu, n, budget, rules, formula_given: bool) -> Ask:
    where_en, where_zh = _gpus_text(n, gpu)
    b = fmt_quantity(budget, "bytes", unit="GB")
    explanation, explanation_zh = _layout_reasoning(rules)
    w, g, o = cs.split(convention("bytes_per_param"))
    shown = f"({w + g}Φ + {o}Φ/DP) / (TP·PP)"
    hint_en = f" Static memory per GPU with ZeRO-1 is {shown}." if formula_given else ""
    hint_zh = f"ZeRO-1 下每卡静态显存为 {shown}。" if formula_given else ""
    return Ask(layout=rules,
               prompt_en=f"Choose a layout for training {model.name} (Φ = {phi_text(rules.phi)}, {model.layers} layers) "
                         f"on {where_en}, with ZeRO-1 over the data-parallel replicas. Constraints: TP × PP × DP uses "
                         f"all {n} GPUs; TP stays inside one node (TP divides {PER_NODE}); PP divides the "
                         f"{model.layers} layers; static memory per GPU is at most {b} (the rest is for "
                         f"activations).{hint_en} Answer as tp=… pp=… dp=… (or three numbers in the order TP, PP, DP).",
               prompt_zh=f"为在 {where_zh}上训练 {model.name}（Φ = {phi_text(rules.phi)}，{model.layers} 层）选择并行布局，"
                         f"数据并行副本间使用 ZeRO-1。约束：TP × PP × DP 用满全部 {n} 张卡；TP 不跨节点（TP 整除 "
                         f"{PER_NODE}）；PP 整除 {model.layers} 层；每卡静态显存不超过 {b}（其余留给激活值）。{hint_zh}"
                         "按 tp=… pp=… dp=… 作答（或按 TP、PP、DP 的顺序写三个数）。",
               explanation=explanation, explanation_zh=explanation_zh,
               takeaway=LAYOUT_TAKEAWAY[0], takeaway_zh=LAYOUT_TAKEAWAY[1], card_formulas=("zero1_parallel_bytes",))


def _layout_spec(rng, formula_given: bool) -> Spec:
    model, gpu, n, budget, rules, _ = _layout_setup(rng)
    return Spec(givens=(phi_given(rules.phi), given("layers", "Layers L", "层数 L", model.layers),
                        given("n_gpus", "GPUs", "GPU 卡数", n),
                        given("budget", "Static-memory budget per GPU", "每卡静态显存预算", budget, "bytes", "GB")),
                asks=(_layout_ask(model, gpu, n, budget, rules, formula_given=formula_given),),
                conventions_en=static_text(EN), conventions_zh=static_text(ZH),
                world=World(model=model, gpu=gpu, precision="bf16", fit_is_asked=True))


@template("parallelism.layout_given", topic="parallelism", title="Choose TP, PP and DP (memory formula given)",
          title_zh="选择 TP、PP、DP（给出显存公式）", difficulty=2, target_seconds=180,
          source="narayanan2021, rajbhandari2020", conventions=("bytes_per_param",))
def layout_given(rng):
    return _layout_spec(rng, formula_given=True)


@template("parallelism.layout", topic="parallelism", title="Choose TP, PP and DP for a training run",
          title_zh="为训练任务选择 TP、PP、DP", difficulty=3, target_seconds=240, source="narayanan2021, rajbhandari2020",
          conventions=("bytes_per_param",))
def layout(rng):
    return _layout_spec(rng, formula_given=False)


MFU_BUSY = (0.4, 0.45, 0.5)
SEQ = (2048, 4096, 8192)

TRAIN_EN = (" Micro-batches of one sequence; the 1F1B bubble is the idle share of the TOTAL step "
            "time. MFU is measured over the busy (non-bubble) time; peak = dense bf16 from the datasheet, "
            "TFLOPS = 10¹² FLOP/s.")
TRAIN_ZH = ("每个微批次一条序列；1F1B 气泡率指空闲时间占一步总时间的比例。MFU 按非气泡的忙碌时间计；"
            "峰值取数据手册中的 bf16 稠密算力，TFLOPS = 10¹² FLOP/s。")


@template("parallelism.train_chain", topic="parallelism",
          title="Train a model on a cluster: layout → memory per GPU → bubble → compute → step time",
          title_zh="在集群上训练模型：布局 → 每卡显存 → 气泡 → 计算时间 → 步时间", difficulty=3, target_seconds=600,
          source="narayanan2021, rajbhandari2020, kaplan2020", conventions=("bytes_per_param",))
def train_chain(rng):
    model, gpu, n, budget, rules, team = _layout_setup(rng, need_pipeline=True)
    chosen = min(team, key=lambda v: (-v.tp, v.pp))
    tp, pp, dp = chosen
    # m ≥ PP (1F1B's steady state), few enough that the bubble (≥ 8 %) is not a rounding error
    m = rng.choice([x for x in (4, 8, 16, 32, 64) if x >= pp and (pp - 1) / (x + pp - 1) >= 0.08])
    s, mfu = rng.choice([x for x in SEQ if x <= model.max_seq] or [model.max_seq]), rng.choice(MFU_BUSY)
    phi = rules.phi
    tokens = dp * m * s
    compute = {"phi": phi, "tokens": tokens, "n_gpus": n, "peak_flops": gpu.bf16, "mfu": mfu}
    u = unit_for("train_time", **compute)
    where_en, where_zh = _gpus_text(n, gpu)
    peak = fmt_quantity(gpu.bf16, "flop_rate", unit="TFLOPS")
    return Spec(
        scenario_en=f"You train {model.name} (Φ = {phi_text(phi)}, {model.layers} layers) on {where_en}: ZeRO-1, "
                    f"at most {fmt_quantity(budget, 'bytes', unit='GB')} of static state per GPU, sequences of "
                    f"{s} tokens, {m} micro-batches per pipeline per step.",
        scenario_zh=f"你在 {where_zh}上训练 {model.name}（Φ = {phi_text(phi)}，{model.layers} 层）：ZeRO-1，每卡静态显存不超过 "
                    f"{fmt_quantity(budget, 'bytes', unit='GB')}，序列长 {s} 个 token，每条流水线每步 {m} 个微批次。",
        givens=(phi_given(phi), given("layers", "Layers L", "层数 L", model.layers), given("n_gpus", "GPUs", "GPU 卡数", n),
                given("budget", "Static-memory budget per GPU", "每卡静态显存预算", budget, "bytes", "GB"),
                given("s", "Sequence length s", "序列长度 s", s), given("m", "Micro-batches per step m", "每步微批次数 m", m),
                kit.named_peak(gpu),
                given("mfu", "MFU over the busy time", "忙碌时间内的 MFU", mfu, "ratio", "%")),
        asks=(_layout_ask(model, gpu, n, budget, rules, formula_given=False),
              Ask(formula="zero1_parallel_bytes", inputs={"phi": phi, "tp": tp, "pp": pp, "n_dp": dp}, unit="GB",
                  prompt_en=f"The team runs tp={tp} pp={pp} dp={dp}. How much static memory does each GPU hold, in GB?",
                  prompt_zh=f"团队采用 tp={tp} pp={pp} dp={dp}。每张卡的静态显存是多少（GB）？"),
              Ask(formula="bubble_1f1b", inputs={"p": pp, "m": m}, unit="%",
                  prompt_en=f"With the 1F1B schedule, PP = {pp} stages and m = {m} micro-batches: what share of the "
                            "step is bubble, in %?",
                  prompt_zh=f"采用 1F1B 调度，PP = {pp} 个阶段、m = {m} 个微批次：气泡占一步的百分之多少？"),
              Ask(formula="train_time", inputs=compute, unit=u,
                  prompt_en=f"One step trains DP × m = {dp} × {m} sequences of {s} tokens ({tokens:,} tokens). "
                            f"At {fmt_number(mfu * 100)}% MFU of the {peak} peak, how long is the busy compute of a "
                            f"step (6Φ FLOPs per token), in {u}?",
                  prompt_zh=f"一步训练 DP × m = {dp} × {m} 条 {s} token 的序列（{tokens:,} 个 token）。按 {peak} "
                            f"峰值的 {fmt_number(mfu * 100)}% MFU，一步的忙碌计算时间是多少（每 token 6Φ FLOPs），单位 {u}？"),
              Ask(formula="step_time_with_bubble", inputs={"compute_time": Ref(3), "bubble": Ref(2)}, unit=u,
                  prompt_en=f"Adding the bubble (idle share of the total step time), how long is one step, in {u}?",
                  prompt_zh=f"加上气泡（空闲时间占一步总时间的比例），一步需要多长时间（{u}）？")),
        conventions_en=static_text(EN) + TRAIN_EN, conventions_zh=static_text(ZH) + TRAIN_ZH,
        world=World(model=model, gpu=gpu, precision="bf16", n_gpus=tp * pp, tp=tp, pp=pp, n_dp=dp, seq=s),
    )


# --------------------------------------------------------------------------- #
# Tensor-parallel communication: NVLink vs InfiniBand, sequence parallelism

TP_EN = ("Megatron-LM tensor parallelism: in the forward pass the attention block and the MLP each end with one "
         "ring AllReduce of the layer's full b × s × h activation (bf16, 2 B). A ring sends one way at a time: β is "
         "the one-way bandwidth per GPU (NVLink: half the bidirectional total NVIDIA quotes; InfiniBand: one 400 Gb/s "
         "NDR port per GPU = 50 GB/s). Latency ignored. MB = 10⁶ B, GB/s = 10⁹ B/s.")
TP_ZH = ("Megatron-LM 张量并行：前向传播中注意力块和 MLP 各以一次 Ring AllReduce 结束，对象是该层完整的 b × s × h 激活值"
         "（bf16，2 B）。Ring 同一时刻单向发送：β 取每卡单向带宽（NVLink 为 NVIDIA 所标双向总带宽的一半；InfiniBand 为"
         "每卡一个 400 Gb/s 的 NDR 端口 = 50 GB/s）。忽略延迟。MB = 10⁶ B，GB/s = 10⁹ B/s。")


def _tp_setup(rng):
    model = rng.choice([m for m in models.DENSE if m.n_heads % 8 == 0])
    gpu = rng.choice(NODE_GPUS)
    s = rng.choice([x for x in (1024, 2048, 4096, 8192) if x <= model.max_seq])
    b = rng.choice([x for x in (1, 2, 4) if s * x <= 16384])
    n_tp = rng.choice((2, 4, 8))
    return model, gpu, hardware.nvlink_of(gpu), s, b, n_tp


def _tp_givens(model, s, b, n_tp) -> tuple:
    return (given("s", "Sequence length s", "序列长度 s", s), given("b", "Micro-batch size b", "微批次大小 b", b),
            given("h", "Hidden size h", "隐藏维度 h", model.d_model),
            given("n_tp", "Tensor-parallel GPUs N_tp", "张量并行卡数 N_tp", n_tp))


def _link_given(link) -> object:
    return given("link_bw", f"{link.name}, one way per GPU", f"{link.name}，每卡单向", link.one_way, "bandwidth", "GB/s")


@template("parallelism.tp_allreduce_time", topic="parallelism", title="Tensor-parallel communication time per layer",
          title_zh="张量并行每层通信时间", difficulty=2, target_seconds=120, source="shoeybi2019, patarasuk2009")
def tp_allreduce_time(rng):
    model, gpu, nvlink, s, b, n_tp = _tp_setup(rng)
    link = rng.choice((nvlink, hardware.IB_NDR))
    inputs = {"s": s, "b": b, "h": model.d_model, "bytes_per_elem": 2, "n_tp": n_tp, "link_bw": link.one_way}
    u = unit_for("tp_allreduce_time_layer", **inputs)
    where_en = "inside one node over NVLink" if link is nvlink else "across nodes over InfiniBand NDR"
    where_zh = "在单个节点内走 NVLink" if link is nvlink else "跨节点走 InfiniBand NDR"
    return Spec(
        givens=_tp_givens(model, s, b, n_tp) + (_link_given(link),),
        asks=(Ask(formula="tp_allreduce_time_layer", inputs=inputs, unit=u,
                  prompt_en=f"{model.name} (h = {model.d_model}) on {gpu.name} GPUs with TP = {n_tp} {where_en} "
                            f"({link.quoted}), s = {s}, b = {b}. How long does one layer's tensor-parallel "
                            f"communication take in the forward pass, in {u}?",
                  prompt_zh=f"{model.name}（h = {model.d_model}）在 {gpu.name} 上做 TP = {n_tp} 的张量并行，{where_zh}"
                            f"（{link.quoted_zh}），s = {s}，b = {b}。单层前向的张量并行通信耗时多少（{u}）？"),),
        conventions_en=TP_EN, conventions_zh=TP_ZH,
        world=World(model=model, gpu=gpu, precision="bf16", n_gpus=n_tp, tp=n_tp, seq=s),
    )


def _node_choices():
    inside = Choice("inside a node", ("inside", "in a node", "within a node", "intra-node", "nvlink", "节点内", "单节点内"),
               "节点内")
    across = Choice("across nodes", ("across", "inter-node", "infiniband", "ib", "跨节点"), "跨节点")
    return inside, across


@template("parallelism.tp_link_chain", topic="parallelism",
          title="Why TP stays inside a node: bytes → NVLink time → InfiniBand time → placement",
          title_zh="为什么 TP 不跨节点：通信量 → NVLink 耗时 → InfiniBand 耗时 → 放置", difficulty=2,
          target_seconds=360, source="shoeybi2019, narayanan2021")
def tp_link_chain(rng):
    model, gpu, nvlink, s, b, n_tp = _tp_setup(rng)
    base = {"s": s, "b": b, "h": model.d_model, "bytes_per_elem": 2, "n_tp": n_tp}
    u1 = unit_for("tp_allreduce_bytes_layer", **base)
    u2 = unit_for("tp_allreduce_time_layer", **base, link_bw=nvlink.one_way)
    u3 = unit_for("tp_allreduce_time_layer", **base, link_bw=hardware.IB_NDR.one_way)
    inside, across = _node_choices()
    t_nv = formulas.get("tp_allreduce_time_layer").evaluate(**base, link_bw=nvlink.one_way)
    t_ib = formulas.get("tp_allreduce_time_layer").evaluate(**base, link_bw=hardware.IB_NDR.one_way)
    ratio = fmt_number(t_ib / t_nv, 3)
    return Spec(
        scenario_en=f"{model.name} (h = {model.d_model}, {model.layers} layers) on {gpu.name} GPUs, TP = {n_tp}, "
                    f"s = {s}, b = {b}. Inside a node: {nvlink.name}, {nvlink.quoted}; between nodes: one "
                    f"InfiniBand NDR port per GPU ({hardware.IB_NDR.quoted}).",
        scenario_zh=f"{model.name}（h = {model.d_model}，{model.layers} 层）在 {gpu.name} 上做 TP = {n_tp}，s = {s}，b = {b}。"
                    f"节点内：{nvlink.name}，{nvlink.quoted_zh}；节点间：每卡一个 InfiniBand NDR 端口"
                    f"（{hardware.IB_NDR.quoted_zh}）。",
        givens=_tp_givens(model, s, b, n_tp) + (
            given("bytes_per_elem", "Bytes per activation element (bf16)", "每个激活值元素字节数（bf16）", 2, "bytes", "B"),
            _link_given(nvlink),
            given("ib_bw", "InfiniBand NDR, one way per GPU", "InfiniBand NDR，每卡单向", hardware.IB_NDR.one_way,
                  "bandwidth", "GB/s")),
        asks=(Ask(formula="tp_allreduce_bytes_layer", inputs=base, unit=u1,
                  prompt_en=f"How many bytes does each GPU send for one layer's tensor-parallel AllReduces in the "
                            f"forward pass, in {u1}?",
                  prompt_zh=f"单层前向的张量并行 AllReduce 中，每张卡发送多少字节（{u1}）？"),
              Ask(formula="tp_allreduce_time_layer", inputs={**base, "link_bw": nvlink.one_way}, unit=u2,
                  prompt_en=f"Over NVLink ({fmt_quantity(nvlink.one_way, 'bandwidth', unit='GB/s')} one way), how "
                            f"long does that take per layer, in {u2}?",
                  prompt_zh=f"走 NVLink（单向 {fmt_quantity(nvlink.one_way, 'bandwidth', unit='GB/s')}）时，每层耗时多少"
                            f"（{u2}）？"),
              Ask(formula="tp_allreduce_time_layer", inputs={**base, "link_bw": hardware.IB_NDR.one_way}, unit=u3,
                  prompt_en="If the TP group spanned nodes, the ring would run at the InfiniBand port's "
                            f"{fmt_quantity(hardware.IB_NDR.one_way, 'bandwidth', unit='GB/s')}. How long per layer "
                            f"then, in {u3}?",
                  prompt_zh="如果 TP 组跨节点，环形 AllReduce 的速度就受限于 InfiniBand 端口的 "
                            f"{fmt_quantity(hardware.IB_NDR.one_way, 'bandwidth', unit='GB/s')}。此时每层耗时多少"
                            f"（{u3}）？"),
              Ask(choices=(inside, across), answer=inside.key,
                  prompt_en=f"These AllReduces sit on the critical path of every layer, forward and backward. Where "
                            f"should the TP group go: {inside.key} or {across.key}?",
                  prompt_zh=f"这些 AllReduce 位于每一层前向和反向的关键路径上。TP 组应放在哪里：{inside.label_zh}"
                            f"还是{across.label_zh}？",
                  explanation=(f"InfiniBand is {ratio}× slower than NVLink here, and TP communicates twice per layer "
                               "in each direction of the pass, blocking compute: keep TP inside a node and let the "
                               "cheaper pipeline (one P2P per micro-batch) and data-parallel traffic cross nodes.",),
                  explanation_zh=(f"这里 InfiniBand 比 NVLink 慢 {ratio} 倍，而 TP 前向、反向每层各通信两次并阻塞计算："
                                  "TP 应放在节点内，让开销更小的流水线（每个微批次一次 P2P）和数据并行通信跨节点。",),
                  takeaway="place each parallelism by its traffic: TP (every layer, blocking) on NVLink, pipeline and "
                           "data parallelism (once per micro-batch or per step, overlappable) across nodes.",
                  takeaway_zh="按通信量放置各种并行：TP（每层都通信、阻塞计算）放在 NVLink 上，流水线并行和数据并行"
                              "（每个微批次或每步一次，可与计算重叠）跨节点。")),
        conventions_en=TP_EN, conventions_zh=TP_ZH,
        world=World(model=model, gpu=gpu, precision="bf16", n_gpus=n_tp, tp=n_tp, seq=s),
    )


SP_EN = ("Megatron-LM tensor parallelism with sequence parallelism (Korthikanti et al. 2022): the LayerNorm and "
         "dropout regions are split along the sequence, so each AllReduce of plain TP becomes a ReduceScatter "
         "(entering the sequence-parallel region) plus an AllGather (leaving it), on the same b × s × h bf16 (2 B) "
         "activation. Ring collectives; 'bytes per GPU' = bytes each GPU sends. MB = 10⁶ B.")
SP_ZH = ("Megatron-LM 张量并行加序列并行（Korthikanti 等 2022）：LayerNorm 和 dropout 区域沿序列维切分，于是普通 TP 的每次 "
         "AllReduce 变成一次 ReduceScatter（进入序列并行区）加一次 AllGather（离开序列并行区），对象仍是同一个 "
         "b × s × h 的 bf16（2 B）激活值。环形集合通信；“每卡通信量”指每张卡发送的字节数。MB = 10⁶ B。")


@template("parallelism.sp_volume", topic="parallelism", title="Sequence parallelism: communication per layer (derive it)",
          title_zh="序列并行每层通信量（自行推导）", difficulty=3, target_seconds=150)
def sp_volume(rng):
    model, gpu, _, s, b, n_tp = _tp_setup(rng)
    inputs = {"s": s, "b": b, "h": model.d_model, "bytes_per_elem": 2, "n_tp": n_tp}
    u = unit_for("tp_allreduce_bytes_layer", **inputs)
    return Spec(
        givens=_tp_givens(model, s, b, n_tp) + (
            given("bytes_per_elem", "Bytes per activation element (bf16)", "每个激活值元素字节数（bf16）", 2, "bytes",
                  "B"),),
        asks=(Ask(formula="tp_allreduce_bytes_layer", inputs=inputs, unit=u,
                  prompt_en=f"{model.name} (h = {model.d_model}) with TP = SP = {n_tp}, s = {s}, b = {b}. In the "
                            f"FORWARD pass, how many bytes does each GPU send for one layer's ReduceScatters and "
                            f"AllGathers, in {u}?",
                  prompt_zh=f"{model.name}（h = {model.d_model}），TP = SP = {n_tp}，s = {s}，b = {b}。前向传播中，单层的 "
                            f"ReduceScatter 和 AllGather 每张卡一共发送多少字节（{u}）？",
                  explanation=("Each sublayer: ReduceScatter (N−1)/N × M + AllGather (N−1)/N × M = 2(N−1)/N × M, "
                               "exactly one ring AllReduce: sequence parallelism saves activation memory at the same "
                               "communication volume. Two sublayers (attention, MLP) per layer.",),
                  explanation_zh=("每个子层：ReduceScatter (N−1)/N × M + AllGather (N−1)/N × M = 2(N−1)/N × M，"
                                  "正好等于一次 Ring AllReduce：序列并行在通信量不变的前提下节省激活显存。每层两个子层"
                                  "（注意力、MLP）。",)),),
        conventions_en=SP_EN, conventions_zh=SP_ZH,
        world=World(model=model, precision="bf16", n_gpus=n_tp, tp=n_tp, seq=s),
    )

# (GPUs, TP, PP): data parallelism takes what tensor and pipeline parallelism leave
ACCUM_STEPS = (2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 15, 16, 18, 20, 21, 22, 24, 25, 26, 28, 30, 32)
LAYOUTS = ((1024, 8, 4), (2048, 8, 8), (4096, 8, 8), (8192, 8, 16), (16384, 8, 16), (512, 8, 2), (3072, 8, 6))
SEQS = (4096, 8192)

CONV_EN = ("Conventions: data-parallel replicas N_dp = GPUs ÷ (TP × PP); the global batch is counted over all "
           "replicas and accumulation steps.")
CONV_ZH = "约定：数据并行副本数 N_dp = GPU 数 ÷（TP × PP）；全局批把所有副本和所有累积步都算在内。"


def _setup(rng):
    n, tp, pp = rng.choice(LAYOUTS)
    n_dp = n // (tp * pp)
    b = rng.choice((1, 2))
    k = rng.choice((2, 4, 8, 16, 32))
    seq = rng.choice(SEQS)
    return n, tp, pp, n_dp, b, k, seq


def _dp_lines(n: int, tp: int, pp: int, n_dp: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return ((f"data-parallel replicas: N_dp = {n:,} ÷ ({tp} × {pp}) = {n_dp}",),
            (f"数据并行副本数：N_dp = {n:,} ÷（{tp} × {pp}）= {n_dp}",))


@template("parallelism.grad_accum", topic="parallelism", title="Gradient-accumulation steps on a 3D-parallel cluster",
          title_zh="3D 并行集群上的梯度累积步数", difficulty=2, target_seconds=120, source="shoeybi2019, narayanan2021")
def grad_accum(rng):
    n, tp, pp, n_dp, b, _, seq = _setup(rng)
    # its answer is the steps themselves: any whole number up to 32, not only the powers of 2 (20+ answers)
    k = rng.choice(ACCUM_STEPS)
    global_seqs = b * k * n_dp
    en, zh = _dp_lines(n, tp, pp, n_dp)
    return Spec(
        givens=(given("n_gpus", "GPUs", "GPU 数", n), given("tp", "Tensor parallelism TP", "张量并行 TP", tp),
                given("pp", "Pipeline parallelism PP", "流水线并行 PP", pp),
                given("global_batch", "Global batch (sequences)", "全局批（序列数）", global_seqs),
                given("b", "Micro-batch (sequences)", "微批次（序列数）", b)),
        asks=(Ask(formula="grad_accum_steps", unit="",
                  inputs={"global_batch": global_seqs, "micro_batch": b, "n_dp": n_dp},
                  explanation=en, explanation_zh=zh,
                  prompt_en=f"A pre-training run on {n:,} GPUs uses TP = {tp} and PP = {pp}; data parallelism takes "
                            f"the rest. The global batch is {global_seqs:,} sequences of {seq:,} tokens and each "
                            f"replica runs micro-batches of {b}. How many gradient-accumulation steps does each "
                            "optimizer step take?",
                  prompt_zh=f"一次预训练在 {n:,} 张 GPU 上进行，TP = {tp}，PP = {pp}，其余为数据并行。全局批为 "
                            f"{global_seqs:,} 条 {seq:,} token 的序列，每个副本的微批次为 {b}。每个优化器步要做多少次"
                            "梯度累积？"),),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(n_gpus=tp * pp, tp=tp, pp=pp, seq=seq),
    )


@template("parallelism.batch_chain", topic="parallelism", title="Replicas → accumulation steps → batch in tokens",
          title_zh="副本数 → 累积步数 → 以 token 计的全局批", difficulty=3, target_seconds=240,
          source="shoeybi2019, narayanan2021, llama3_2024")
def batch_chain(rng):
    n, tp, pp, n_dp, b, k, seq = _setup(rng)
    global_seqs = b * k * n_dp
    en, zh = _dp_lines(n, tp, pp, n_dp)
    return Spec(
        scenario_en=f"A pre-training run on {n:,} GPUs uses TP = {tp} and PP = {pp} (data parallelism takes the "
                    f"rest), sequences of {seq:,} tokens, micro-batches of {b} sequence{'s' if b > 1 else ''} per "
                    "replica and a global "
                    f"batch of {global_seqs:,} sequences.",
        scenario_zh=f"一次预训练在 {n:,} 张 GPU 上进行，TP = {tp}，PP = {pp}（其余为数据并行），序列长 {seq:,} token，"
                    f"每个副本的微批次为 {b} 条序列，全局批为 {global_seqs:,} 条序列。",
        givens=(given("n_gpus", "GPUs", "GPU 数", n), given("tp", "Tensor parallelism TP", "张量并行 TP", tp),
                given("pp", "Pipeline parallelism PP", "流水线并行 PP", pp),
                given("seq", "Sequence length S", "序列长度 S", seq),
                given("b", "Micro-batch (sequences)", "微批次（序列数）", b),
                given("global_batch", "Global batch (sequences)", "全局批（序列数）", global_seqs)),
        asks=(Ask(formula="grad_accum_steps", unit="",
                  inputs={"global_batch": global_seqs, "micro_batch": b, "n_dp": n_dp},
                  explanation=en, explanation_zh=zh,
                  prompt_en="How many gradient-accumulation steps does each optimizer step take?",
                  prompt_zh="每个优化器步要做多少次梯度累积？"),
              Ask(formula="global_batch_tokens", unit="",
                  inputs={"micro_batch": b, "grad_accum": Ref(0), "n_dp": n_dp, "seq": seq},
                  explanation=en, explanation_zh=zh,
                  prompt_en="How many tokens does one optimizer step see (Llama 3 trained at up to 16M)?",
                  prompt_zh="一个优化器步处理多少个 token（Llama 3 最多用到 1600 万）？")),
        conventions_en=CONV_EN, conventions_zh=CONV_ZH,
        world=World(n_gpus=tp * pp, tp=tp, pp=pp, seq=seq),
    )


# Chips a data-parallel run trains on in 8-GPU NVLink nodes; each GPU's NIC is the catalogue's scale_out_nic_gbps
# (A100 200 Gb/s, Hopper, MI300X and B200 400 Gb/s, B300 800 Gb/s).  The order keeps seed 1 on H100.
_DP_CHIPS = ("a100_80", "h100_sxm", "h200", "mi300x", "h800", "b200", "b300")
# Training recipes, drawn last so the seeds that keep the default keep their problem: (GEMM precision, gradient dtype,
# its bytes).  bf16 GEMMs with bf16 gradients first (the default); fp8 gradients all-reduced in fp8 are FP8-LM's (Peng
# et al. 2023); fp32 gradients are what PyTorch AMP keeps and reduces; fp8 GEMMs with bf16 gradients are Transformer
# Engine's and DeepSeek-V3's recipe.  (The order keeps seeds 1-3 three different answers.)
DP_RECIPES = (("bf16", "bf16", 2), ("fp8", "fp8", 1), ("bf16", "fp32", 4), ("fp8", "bf16", 2))
# The NVL72 racks (one 72-GPU NVLink domain, the catalogue's GB200 and GB300), drawn last for a quarter of the seeds
DP_RACKS = ("gb200", "gb300")
# fp8 GEMMs with the gradients all-reduced in fp32: Megatron's default under bf16 and fp8 training (NeMo's mixed-precision
# recipes set grad_reduce_in_fp32), drawn last for a share of the fp8 seeds
FP8_FP32_RECIPE = ("fp8", "fp32", 4)
FP32_REDUCE_SHARE = 0.5


def _dp_conv(peak_dtype: str, grad_dtype: str, nbytes: int, fabric: str = "NVLink") -> tuple[str, str]:
    return (f"Pure data parallelism in {fabric} nodes, one NIC per GPU (a rail): every step all-reduces the {grad_dtype} "
            f"gradients ({nbytes}Φ bytes) hierarchically, a reduce-scatter over {fabric} in the node, then each GPU's "
            f"NIC all-reduces its 1/g shard with a ring across the nodes, sending about twice the shard, "
            f"2 × {nbytes}Φ/g bytes. The NIC term sets the bound (the {fabric} phases are left out). The all-reduce "
            f"overlaps with the backward pass, 4Φ FLOPs per token at the dense {peak_dtype} peak. Latency ignored. "
            "TFLOPS = 10¹² FLOP/s, GB/s = 10⁹ B/s, 1 Gb/s = 1/8 GB/s.",
            f"在 {fabric} 节点上做纯数据并行，每卡一块网卡（一条轨道）：每一步对 {grad_dtype} 梯度（{nbytes}Φ 字节）做分层 "
            f"AllReduce，先在节点内经 {fabric} 做 ReduceScatter，再由每张卡的网卡跨节点对自己那 1/g 的分片做环形 AllReduce，"
            f"约发送分片的两倍，即 2 × {nbytes}Φ/g 字节。网卡这一项决定下限（不计 {fabric} 阶段）。AllReduce 与反向传播重叠，"
            f"反向每 token 4Φ FLOPs，按 {peak_dtype} 稠密峰值计。忽略延迟。TFLOPS = 10¹² FLOP/s，GB/s = 10⁹ B/s，"
            "1 Gb/s = 1/8 GB/s。")


LARGE_RUN_TOKENS = (4e6, 16e6)  # tokens per step large runs train with (Llama 3: up to 16M)


def _dp_takeaway(n: int, b_min: float, fabric: str = "NVLink") -> tuple[str, str]:
    """Where the global batch the bound implies falls against what large runs use, computed from the problem."""
    total = n * b_min
    shown = f"{total / 1e6:,.1f}M"
    if total > LARGE_RUN_TOKENS[1]:
        return (f"over {n:,} GPUs that is a global batch of at least {shown} tokens per step, above the 4-16M tokens "
                "large runs train with: that is why they add tensor, pipeline or expert parallelism (fewer "
                "data-parallel replicas) instead of shrinking the per-GPU batch.",
                f"在 {n:,} 张卡上，这意味着每步全局批至少 {shown} 个 token，超过大规模训练常用的 4-16M token："
                "所以它们加入张量、流水线或专家并行（减少数据并行副本数），而不是缩小每卡的批。")
    where_en = "below" if total < LARGE_RUN_TOKENS[0] else "within"
    where_zh = "低于" if total < LARGE_RUN_TOKENS[0] else "落在"
    return (f"over {n:,} GPUs that is a global batch of at least {shown} tokens per step, {where_en} the 4-16M tokens "
            f"large runs train with: reducing over {fabric} first cuts each NIC's share by g, which keeps pure data "
            "parallelism affordable at this scale.",
            f"在 {n:,} 张卡上，这意味着每步全局批至少 {shown} 个 token，{where_zh}大规模训练常用的 4-16M token 范围"
            f"{'之内' if where_en == 'within' else ''}：先经 {fabric} 在节点内归约，每块网卡的负担降为 1/g，"
            "纯数据并行在这个规模下仍然划算。")


@template("parallelism.dp_min_batch", topic="parallelism",
          title="The per-GPU batch that hides data-parallel gradient traffic (derive it)",
          title_zh="能掩盖数据并行梯度通信的每卡批大小（推导）", difficulty=3, target_seconds=180,
          source="austin2025, li2020, sergeev2018")
def dp_min_batch(rng):
    gpu = hardware.draw(rng, [hardware.get(k) for k in _DP_CHIPS],
                        accept=lambda g: g.scale_out_nic is not None and (g.scale_up_domain or 0) >= 2)
    n = rng.choice((2048, 3072, 4096, 6144, 8192, 10240, 12288, 16384, 20480, 24576, 32768))
    # drawn last, so the seeds that draw neither keep their problem (seed 1: H100, bf16, 2,473 tokens): an NVL72 rack
    # a quarter of the time, then another training recipe 60 % of the time
    if rng.random() >= 0.75:
        gpu = hardware.draw(rng, [hardware.get(k) for k in DP_RACKS])
    link, g = gpu.scale_out_nic, gpu.scale_up_domain
    assert link is not None and g is not None  # every chip drawn has both
    peak_dtype, grad_dtype, nbytes = DP_RECIPES[0]
    if rng.random() < 0.6:
        peak_dtype, grad_dtype, nbytes = rng.choice([r for r in DP_RECIPES if gpu.supports(r[0])])
    if peak_dtype == "fp8" and rng.random() < FP32_REDUCE_SHARE:  # the last draw: the other seeds keep their problem
        peak_dtype, grad_dtype, nbytes = FP8_FP32_RECIPE
    peak = gpu.peak(peak_dtype)
    inputs: dict[str, float] = {"peak_flops": peak, "link_bandwidth": link, "bytes_per_param": nbytes,
                                "gpus_per_node": g}
    b_min = formulas.get("dp_min_batch_per_device").evaluate(**inputs)
    gbit = round(link * 8 / 1e9)
    # AMD's 8-GPU platforms are joined by Infinity Fabric (xGMI), not NVLink: the texts name the chip's own fabric
    fabric = "NVLink" if gpu.vendor == "NVIDIA" else "Infinity Fabric"
    take_en, take_zh = _dp_takeaway(n, b_min, fabric)
    conv_en, conv_zh = _dp_conv(peak_dtype, grad_dtype, nbytes, fabric)
    node_en, node_zh = ((f"{g}-GPU {fabric} nodes", f"每 {g} 张卡组成一个 {fabric} 节点") if g <= 8 else
                        (f"NVL{g} racks (one {g}-GPU NVLink domain each)", f"每个 NVL{g} 机柜的 {g} 张卡组成一个 NVLink 域"))
    recipe_en, recipe_zh = (("", "") if (peak_dtype, grad_dtype) == ("bf16", "bf16") else
                            (f" Its GEMMs run in {peak_dtype}; the gradients are all-reduced in {grad_dtype} ({nbytes} B "
                             "each).",
                             f"GEMM 用 {peak_dtype} 计算；梯度以 {grad_dtype}（每个 {nbytes} B）做 AllReduce。"))
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                given("peak_flops", f"Peak dense {peak_dtype} FLOP/s", f"{peak_dtype} 稠密峰值算力", peak, "flop_rate",
                      "TFLOPS"),
                given("gpus_per_node", f"GPUs per {fabric} node g", f"每个 {fabric} 节点的 GPU 数 g", g),
                given("link_bandwidth", f"NIC per GPU ({gbit} Gb/s), one way", f"每卡网卡单向带宽（{gbit} Gb/s）", link,
                      "bandwidth", "GB/s"))
        + (() if nbytes == 2 and grad_dtype == "bf16" else
           (given("bytes_per_param", f"Bytes per gradient ({grad_dtype})", f"每个梯度的字节数（{grad_dtype}）", nbytes,
                  "bytes", "B"),)),
        asks=(Ask(formula="dp_min_batch_per_device", unit="",
                  inputs=inputs,
                  explanation=("compute grows with the tokens per GPU, the gradient traffic does not: the batch per "
                               "GPU at which they take the same time is where data parallelism stops waiting on the "
                               "network",),
                  explanation_zh=("计算量随每卡 token 数增长，梯度通信量却不变：两者耗时相等时的每卡批大小，就是数据并行"
                                  "不再等网络的分界点",),
                  takeaway=take_en, takeaway_zh=take_zh,
                  prompt_en=f"A dense model is trained with pure data parallelism on {n:,} {gpu.name} GPUs in "
                            f"{node_en}, each GPU with its own {gbit} Gb/s NIC.{recipe_en} How many tokens must each "
                            "GPU process per step so that the gradient all-reduce can hide behind the backward pass?",
                  prompt_zh=f"一个稠密模型在 {n:,} 张 {gpu.name} 上用纯数据并行训练，{node_zh}，"
                            f"每张卡有自己的 {gbit} Gb/s 网卡。{recipe_zh}每张卡每步至少要处理多少个 token，"
                            "梯度 AllReduce 才能被反向传播掩盖？"),),
        conventions_en=conv_en, conventions_zh=conv_zh,
        world=World(gpu=gpu, precision=peak_dtype),
    )
