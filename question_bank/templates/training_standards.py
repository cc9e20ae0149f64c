"""Training-side interview standards beyond the seeds: parameter count from a config, nccl-tests algbw vs
busbw, DDP overlap, tree vs ring AllReduce, Chinchilla sizing, whether an MFU figure is good, 1F1B's
in-flight micro-batches and the memory cost of interleaving.  (Activation memory with TP and SP,
Korthikanti et al. 2022 Table 2, lives with the other activation templates in memory.py.)"""

from __future__ import annotations

import math

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from .. import hardware, kit, models
from ..base import Ask, Ref, Spec, World, given, template
from .memory import model_phi, nominal_phi, phi_given, phi_text, unit_for, zh_model
from .roofline import an

# --------------------------------------------------------------------------- #
# Parameter count from a config (memory)

LLAMA_LIKE = tuple(m for m in models.DENSE if m.llama_style)
# Widths of Llama-style decoders (Llama 3.2 1B/3B, Llama 3 8B, Qwen2.5 14B/32B, Llama 3 70B): hidden size,
# FFN size, KV heads; heads of 128 (64 for the 1B).
WIDTHS = ((2048, 8192, 8, 64), (3072, 8192, 8, 128), (4096, 14336, 8, 128), (5120, 13824, 8, 128),
          (5120, 27648, 8, 128), (8192, 28672, 8, 128))
VOCABS = (32000, 128256, 151936)


def _config(rng) -> "models.Model":
    """A real Llama-style model, or a Llama-style config of real widths at another depth, such that every
    named mistake (no GQA, 2-matrix MLP, no embeddings) is more than 1.5 % off the exact count."""
    f = formulas.get("param_count")
    while True:
        if rng.random() < 0.3:
            m = rng.choice(LLAMA_LIKE)
        else:
            d, ffn, kv, d_head = rng.choice(WIDTHS)
            layers, vocab = rng.choice((16, 24, 28, 32, 36, 40, 48, 64, 80)), rng.choice(VOCABS)
            inputs = {"layers": layers, "d_model": d, "n_heads": d // d_head, "n_kv_heads": kv, "d_head": d_head,
                      "ffn": ffn, "vocab": vocab}
            m = models.Model("hypothetical", f"a Llama-style model (L = {layers}, h = {d})", layers, d, d // d_head, kv,
                             d_head, ffn, vocab, f.evaluate(**inputs), True, "drawn config")
        exact = f.evaluate(**m.param_inputs())
        wrong = [v for _, v in f.misconception_values(**m.param_inputs())]
        if all(abs(v - exact) / max(v, exact) > 0.015 for v in wrong):
            return m


def zh_name(m) -> str:
    """`` Llama-3-8B `` or ``一个 Llama 式模型（L = 32，h = 4096）``, spaced for Chinese text."""
    if m.key == "hypothetical":
        kind = "Llama 式模型" if m.name.startswith("a Llama") else "Transformer 模型"
        return f"一个 {kind}（L = {m.layers}，h = {m.d_model}）"
    return f" {m.name} "


def cap_first(text: str) -> str:
    return text[:1].upper() + text[1:]


PARAM_EN = ("Llama-style decoder: Q and O projections h × (n_heads·d_head), K and V h × (n_kv_heads·d_head) "
            "(grouped-query attention), a gated (SwiGLU) MLP of three h × d_ffn matrices, untied input embedding and "
            "output matrices V × h; norms and biases ignored.")
PARAM_ZH = ("Llama 式解码器：Q、O 投影为 h × (n_heads·d_head)，K、V 为 h × (n_kv_heads·d_head)（分组查询注意力），"
            "门控（SwiGLU）MLP 含三个 h × d_ffn 矩阵，输入词嵌入与输出矩阵不共享，各为 V × h；忽略归一化层和偏置。")


def _config_givens(m) -> tuple:
    return (kit.model(m, "layers"), kit.model(m, "d_model", label=("Hidden size h", "隐藏维度 h")),
            kit.model(m, "n_heads"), kit.model(m, "n_kv_heads", label=("KV heads", "KV 头数")),
            kit.model(m, "d_head"),
            given("ffn", "MLP inner size d_ffn", "MLP 中间维度 d_ffn", m.ffn),
            kit.model(m, "vocab"))


@template("memory.param_count_approx", topic="memory", title="Parameters from the 12·L·h² rule",
          title_zh="用 12·L·h² 估算参数量", difficulty=1, target_seconds=45, source="kaplan2020")
def param_count_approx(rng):
    m = _config(rng)
    if rng.random() < 0.7:  # another depth and width: the rule needs only L and h
        layers, d = rng.choice(range(12, 129, 4)), rng.choice((2048, 2560, 3072, 4096, 5120, 6144, 8192, 12288, 16384))
        m = m._replace(key="hypothetical", name=f"a transformer (L = {layers}, h = {d})", layers=layers, d_model=d)
    return Spec(
        givens=(kit.model(m, "layers"), kit.model(m, "d_model", label=("Hidden size h", "隐藏维度 h"))),
        asks=(Ask(formula="param_count_approx", unit="",
                  prompt_en=f"{cap_first(m.name)} has L = {m.layers} layers of hidden size h = {m.d_model}. Estimate its parameters "
                            "with the rule of thumb 12·L·h² (4h² attention + 8h² MLP per layer).",
                  prompt_zh=f"{zh_name(m)}有 L = {m.layers} 层，隐藏维度 h = {m.d_model}。用经验公式 12·L·h²"
                            "（每层注意力 4h² + MLP 8h²）估算它的参数量。"),),
        conventions_en="A plain count of parameters (70B = 7e10); embeddings ignored.",
        conventions_zh="参数量为个数（70B = 7e10）；忽略词嵌入。",
        world=World(model=m),
    )


@template("memory.param_count", topic="memory", title="Exact parameters of a Llama-style config (GQA, SwiGLU, vocab)",
          title_zh="Llama 式配置的精确参数量（GQA、SwiGLU、词表）", difficulty=3, target_seconds=240)
def param_count(rng):
    m = _config(rng)
    return Spec(
        givens=_config_givens(m),
        asks=(Ask(formula="param_count", inputs=m.param_inputs(), unit="", tolerance=0.01,
                  prompt_en=f"From the config of {m.name}, count its parameters exactly (within 1 %).",
                  prompt_zh=f"根据{zh_name(m)}的配置，精确计算它的参数量（误差 1% 以内）。"),),
        conventions_en=PARAM_EN + " A plain count (8B = 8e9).", conventions_zh=PARAM_ZH + "参数量为个数（8B = 8e9）。",
        world=World(model=m),
    )


@template("memory.param_count_chain", topic="memory", title="Parameters: 12·L·h² → exact count → bf16 weights",
          title_zh="参数量：12·L·h² → 精确计数 → bf16 权重", difficulty=2, target_seconds=360,
          source="kaplan2020, touvron2023")
def param_count_chain(rng):
    m = _config(rng)
    return Spec(
        scenario_en=f"The config of {m.name} is on the whiteboard; the interviewer wants its size three ways.",
        scenario_zh=f"白板上写着{zh_name(m)}的配置；面试官要你用三种方式说出它的规模。",
        givens=_config_givens(m),
        asks=(Ask(formula="param_count_approx", inputs={"layers": m.layers, "d_model": m.d_model}, unit="",
                  prompt_en="First the rule of thumb: 12·L·h² parameters?",
                  prompt_zh="先用经验公式：12·L·h² 是多少个参数？"),
              Ask(formula="param_count", inputs=m.param_inputs(), unit="", tolerance=0.01,
                  prompt_en="Now exactly (within 1 %), with grouped-query attention, the gated MLP and the vocabulary: how many "
                            "parameters?",
                  prompt_zh="再精确计算（含分组查询注意力、门控 MLP 和词表，误差 1% 以内）：参数量是多少？"),
              Ask(formula="weights_bytes", inputs={"phi": Ref(1), "bytes_per_param": 2}, unit="GB",
                  prompt_en="How much memory do those weights take in bf16 (2 B each), in GB?",
                  prompt_zh="这些权重以 bf16（每个 2 B）存放占多少显存（GB）？")),
        conventions_en=PARAM_EN + " Counts are plain numbers (8B = 8e9); GB = 10⁹ B.",
        conventions_zh=PARAM_ZH + "参数量为个数（8B = 8e9）；GB = 10⁹ B。",
        world=World(model=m),
    )


# --------------------------------------------------------------------------- #
# nccl-tests: algbw vs busbw (communication)


def _gbs(v: float) -> str:
    return fmt_quantity(v, "bandwidth", unit="GB/s")


def _ms(v: float) -> str:
    return fmt_quantity(v, "time", unit="ms")


def _time(v: float) -> str:
    text = fmt_quantity(v, "time")
    return text[:-2] + "µs" if text.endswith(" us") else text


NCCL_EN = ("nccl-tests all_reduce_perf reports algbw = size / time and busbw = algbw × 2(n−1)/n, the rate each link "
           "carries in a ring, comparable with the hardware's one-way bandwidth whatever n is. GB = 10⁹ B, "
           "GB/s = 10⁹ B/s.")
NCCL_ZH = ("nccl-tests 的 all_reduce_perf 报告 algbw = 数据量 / 时间，以及 busbw = algbw × 2(n−1)/n：环上每条链路实际承载的"
           "速率，无论 n 多大都可以直接和硬件的单向带宽比较。GB = 10⁹ B，GB/s = 10⁹ B/s。")


@template("communication.busbw_given", topic="communication", title="nccl-tests bus bandwidth from algbw",
          title_zh="由 algbw 求 nccl-tests 总线带宽", difficulty=1, target_seconds=45, source="nccl_tests")
def busbw_given(rng):
    n = rng.choice((4, 8, 16, 32, 64))
    algbw = rng.choice((20, 21, 22, 23, 24, 40, 42, 44, 90, 100, 120, 150, 160, 180, 200, 220, 240, 250)) * 1e9
    return Spec(
        givens=(given("algbw", "algbw", "algbw", algbw, "bandwidth", "GB/s"), given("n", "GPUs n", "卡数 n", n)),
        asks=(Ask(formula="allreduce_busbw", unit="GB/s",
                  prompt_en=f"An all_reduce_perf run on n = {n} GPUs reports algbw = "
                            f"{fmt_quantity(algbw, 'bandwidth', unit='GB/s')} for a large message. What busbw does it "
                            "report, in GB/s?",
                  prompt_zh=f"在 n = {n} 张卡上运行 all_reduce_perf，大消息的 algbw 为 "
                            f"{fmt_quantity(algbw, 'bandwidth', unit='GB/s')}。它报告的 busbw 是多少（GB/s）？"),),
        conventions_en=NCCL_EN, conventions_zh=NCCL_ZH,
    )


@template("communication.nccl_chain", topic="communication", title="nccl-tests: time → algbw → busbw → against the link",
          title_zh="nccl-tests：时间 → algbw → busbw → 与链路对比", difficulty=2, target_seconds=240,
          source="nccl_tests")
def nccl_chain(rng):
    if rng.random() < 0.5:  # one NVLink node, or several nodes over one NDR port per GPU
        gpu = rng.choice([g for g in hardware.GPUS if hardware.nvlink_of(g)])
        link, n, where_en, where_zh = hardware.nvlink_of(gpu), 8, "one 8-GPU node", "单个 8 卡节点"
    else:
        gpu = rng.choice([g for g in hardware.GPUS if g.key in ("h100_sxm", "h200")])
        link, n = hardware.IB_NDR, rng.choice((16, 32, 64))
        where_en, where_zh = f"{n // 8} nodes over InfiniBand NDR", f"{n // 8} 个节点，经 InfiniBand NDR 互联"
    size = rng.choice((1, 2, 4, 8)) * 1e9
    eff = rng.choice((0.7, 0.75, 0.8, 0.85, 0.9))  # measured busbw as a share of the one-way link bandwidth
    time = float(f"{size * 2 * (n - 1) / n / (eff * link.one_way):.3g}")
    inside, other = Choice("busbw", ("bus bandwidth", "bus", "总线带宽"), "busbw"), Choice("algbw", ("algorithm bandwidth",
                                                                                                   "算法带宽"), "algbw")
    algbw = formulas.get("nccl_algbw").evaluate(size=size, time=time)
    busbw = formulas.get("allreduce_busbw").evaluate(algbw=algbw, n=n)
    ceiling = link.one_way * n / (2 * (n - 1))  # the highest algbw a saturated link can show
    bw = _gbs

    def pct(v: float) -> str:  # share of the link's one-way bandwidth
        return fmt_number(round(100 * v / link.one_way))
    return Spec(
        scenario_en=f"all_reduce_perf on {n} {gpu.name} GPUs ({where_en}; {link.name}: "
                    f"{fmt_quantity(link.one_way, 'bandwidth', unit='GB/s')} one way per GPU).",
        scenario_zh=f"在 {n} 张 {gpu.name} 上运行 all_reduce_perf（{where_zh}；{link.name}：每卡单向 "
                    f"{fmt_quantity(link.one_way, 'bandwidth', unit='GB/s')}）。",
        givens=(given("size", "Message size", "消息大小", size, "bytes", "GB"),
                given("time", "Measured time", "实测时间", time, "time", "ms"), given("n", "GPUs n", "卡数 n", n)),
        asks=(Ask(formula="nccl_algbw", inputs={"size": size, "time": time}, unit="GB/s",
                  prompt_en=f"{an(fmt_quantity(size, 'bytes', unit='GB'), cap=True)} AllReduce takes "
                            f"{fmt_quantity(time, 'time', unit='ms')}. What algbw does nccl-tests print, in GB/s?",
                  prompt_zh=f"一次 {fmt_quantity(size, 'bytes', unit='GB')} 的 AllReduce 耗时 "
                            f"{fmt_quantity(time, 'time', unit='ms')}。nccl-tests 打印的 algbw 是多少（GB/s）？"),
              Ask(formula="allreduce_busbw", inputs={"algbw": Ref(0), "n": n}, unit="GB/s",
                  prompt_en="And the busbw, in GB/s?", prompt_zh="busbw 又是多少（GB/s）？"),
              Ask(choices=(inside, other), answer="busbw",
                  prompt_en="Which of the two do you compare with the link's one-way bandwidth to judge the fabric: "
                            "busbw or algbw?",
                  prompt_zh="判断互联是否跑满时，应拿哪一个和链路单向带宽比较：busbw 还是 algbw？",
                  explanation=(f"busbw = {bw(busbw)} against the link's {bw(link.one_way)} one way: {pct(busbw)}% "
                               "of the wire is in use",
                               f"algbw = {bw(algbw)} reads as only {pct(algbw)}%, but it counts each byte of the "
                               f"message once: a ring AllReduce moves 2(n−1)/n of it over every link, so even a "
                               f"saturated link shows at most {bw(link.one_way)} × n / (2(n−1)) = {bw(ceiling)} as "
                               "algbw, less as n grows",
                               "busbw = algbw × 2(n−1)/n puts that factor back: the same yardstick for any n, so compare busbw"),
                  explanation_zh=(f"busbw = {bw(busbw)}，链路单向带宽 {bw(link.one_way)}：链路用上了 {pct(busbw)}%",
                                  f"algbw = {bw(algbw)} 看上去只有 {pct(algbw)}%，但它把消息的每个字节只算一次：Ring "
                                  f"AllReduce 在每条链路上要传消息的 2(n−1)/n，所以链路即使跑满，algbw 最多也只有 "
                                  f"{bw(link.one_way)} × n / (2(n−1)) = {bw(ceiling)}，而且 n 越大越低",
                                  "busbw = algbw × 2(n−1)/n 正好把这个因子乘了回去：无论 n 多大都是同一把尺子，所以比较 busbw"),
                  takeaway="judge a fabric by busbw ÷ link bandwidth: near 100 % the links are saturated; far below, "
                           "suspect the topology, the NCCL setup or a message too small to reach bandwidth.",
                  takeaway_zh="用 busbw ÷ 链路带宽判断互联：接近 100% 说明链路已跑满；远低于此，就查拓扑、NCCL 配置，"
                              "或者消息太小、还没进入带宽区间。",
                  card_formulas=("allreduce_busbw",))),
        conventions_en=NCCL_EN, conventions_zh=NCCL_ZH,
        world=World(gpu=gpu),
    )


# --------------------------------------------------------------------------- #
# DDP overlap (communication)

OVERLAP_EN = ("Bucketed DDP: the bf16 gradients (2 B per parameter) are split into k equal buckets, reduced in order; a "
              "bucket's ring AllReduce starts once its gradients are computed and the previous bucket is done. The "
              "backward pass produces gradients at a steady rate. α-β model, one NDR port per GPU. GB = 10⁹ B, "
              "GB/s = 10⁹ B/s.")
OVERLAP_ZH = ("分桶 DDP：bf16 梯度（每参数 2 B）分成 k 个等大的桶，按顺序归约；某个桶的梯度算完且前一个桶通信结束后，"
              "它的 Ring AllReduce 就开始。反向传播匀速产生梯度。α-β 模型，每卡一个 NDR 端口。GB = 10⁹ B，GB/s = 10⁹ B/s。")


@template("communication.ddp_overlap_chain", topic="communication",
          title="DDP overlap: gradient bytes → AllReduce time → exposed time → hidden?",
          title_zh="DDP 通信重叠：梯度大小 → AllReduce 耗时 → 暴露时间 → 能否掩盖", difficulty=3, target_seconds=420,
          source="li2020")
def ddp_overlap_chain(rng):
    model = rng.choice([m for m in models.DENSE if m.params <= 14e9])
    phi = nominal_phi(model)
    n = rng.choice((16, 32, 64, 128))
    alpha, beta = 10e-6, hardware.IB_NDR.one_way
    k = rng.choice((4, 8, 16))
    grad = 2 * phi
    # the backward time is drawn around one AllReduce of the whole gradient; each of the k buckets is its own
    # AllReduce, so the communication pays k latency terms (issue #26: it was charged once)
    one = formulas.get("allreduce_time").evaluate(m=grad, n=n, alpha=alpha, beta=beta)
    bwd = float(f"{one * rng.choice((0.5, 0.7, 1.3, 1.6, 2.0)):.2g}")
    comm = formulas.get("bucketed_allreduce_time").evaluate(m=grad, n=n, alpha=alpha, beta=beta, buckets=k)
    hidden = Choice("hidden", ("yes", "hidden behind backward", "overlapped", "能", "能隐藏", "隐藏", "能掩盖", "掩盖"),
                    "能被掩盖")
    exposed = Choice("exposed", ("no", "not hidden", "partly exposed", "不能", "不能隐藏", "暴露", "不能掩盖"),
                     "不能被掩盖")
    answer = "hidden" if comm <= bwd else "exposed"
    u1 = unit_for("bucketed_allreduce_time", m=grad, n=n, alpha=alpha, beta=beta, buckets=k)
    left = formulas.get("ddp_exposed_comm_time").evaluate(comm_time=comm, backward_time=bwd, buckets=k)
    ms = _ms
    if answer == "hidden":
        why_en = (f"T_comm ≤ T_bwd: a bucket's AllReduce ({ms(comm / k)}) ends before the next bucket is ready "
                  f"({ms(bwd / k)} later), so the link keeps up with the backward pass: hidden",
                  f"only the last bucket, ready when the backward pass ends, shows: T_comm/k = {ms(comm / k)}")
        why_zh = (f"T_comm ≤ T_bwd：一个桶的 AllReduce（{ms(comm / k)}）在下一个桶就绪（{ms(bwd / k)} 之后）之前就结束，"
                  "链路跟得上反向传播：能被掩盖",
                  f"只有反向结束时才就绪的最后一个桶暴露在外：T_comm/k = {ms(comm / k)}")
        take = ("with T_comm ≤ T_bwd the AllReduce rides behind the backward pass; only the last bucket shows, so "
                "smaller buckets shrink what is left.",
                "T_comm ≤ T_bwd 时 AllReduce 完全被反向传播掩盖；只剩最后一个桶暴露，桶分得越小，暴露得越少。")
    else:
        why_en = (f"T_comm > T_bwd: a bucket's AllReduce takes {ms(comm / k)} but a new bucket is ready every "
                  f"{ms(bwd / k)}, so a queue builds up: not hidden",
                  f"{ms(left)} is left when the backward pass ends; at least T_comm − T_bwd = {ms(comm - bwd)} of it "
                  "stays exposed whatever the number of buckets")
        why_zh = (f"T_comm > T_bwd：一个桶的 AllReduce 要 {ms(comm / k)}，而每 {ms(bwd / k)} 就有一个新桶就绪，"
                  "通信越积越多：不能被掩盖",
                  f"反向结束时还剩 {ms(left)}；其中至少 T_comm − T_bwd = {ms(comm - bwd)} 无论分多少桶都会暴露")
        take = ("overlap hides communication only up to the length of the backward pass: beyond it, more buckets do "
                "not help, only fewer bytes or a faster link.",
                "重叠最多只能掩盖与反向传播等长的通信：超出的部分分再多的桶也没用，只能减少字节或换更快的链路。")
    return Spec(
        scenario_en=f"{model.name} (Φ = {phi_text(phi)}) trains with DDP on {n} GPUs; gradients go in k = {k} buckets; "
                    f"the backward pass takes {fmt_quantity(bwd, 'time', unit='ms')}.",
        scenario_zh=f"{model.name}（Φ = {phi_text(phi)}）在 {n} 张卡上用 DDP 训练；梯度分成 k = {k} 个桶；反向传播耗时 "
                    f"{fmt_quantity(bwd, 'time', unit='ms')}。",
        givens=(phi_given(phi), given("n", "GPUs N", "卡数 N", n),
                given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs"),
                given("beta", "Link bandwidth β (one way)", "单向链路带宽 β", beta, "bandwidth", "GB/s"),
                given("backward_time", "Backward-pass time", "反向传播耗时", bwd, "time", "ms"),
                given("buckets", "Buckets k", "桶数 k", k)),
        asks=(Ask(formula="weights_bytes", inputs={"phi": phi, "bytes_per_param": 2}, unit="GB",
                  prompt_en="How large is the bf16 gradient, in GB?", prompt_zh="bf16 梯度有多大（GB）？"),
              Ask(formula="bucketed_allreduce_time", inputs={"m": Ref(0), "n": n, "alpha": alpha, "beta": beta,
                                                             "buckets": k}, unit=u1,
                  prompt_en=f"Reducing all of it with one ring AllReduce per bucket, how long does the communication "
                            f"of the k buckets take in total, in {u1}?",
                  prompt_zh=f"每个桶做一次 Ring AllReduce，k 个桶的通信合计耗时多少（{u1}）？"),
              Ask(formula="ddp_exposed_comm_time", inputs={"comm_time": Ref(1), "backward_time": bwd, "buckets": k},
                  unit="ms",
                  prompt_en="How much communication time is left after the backward pass ends (exposed), in ms?",
                  prompt_zh="反向传播结束后还剩多少通信时间（暴露在外），单位 ms？"),
              Ask(choices=(hidden, exposed), answer=answer,
                  prompt_en="Apart from the last bucket, which can only start when the backward pass ends, is the "
                            "AllReduce hidden behind the backward pass: hidden or exposed?",
                  prompt_zh="除了只能在反向结束后才开始的最后一个桶，AllReduce 能否被反向传播掩盖：能被掩盖还是不能被掩盖？",
                  explanation=("the AllReduce of all buckets hides behind the backward pass that produces them when it "
                               "takes no longer (T_comm ≤ T_bwd)",
                               f"  T_comm = {ms(comm)}, T_bwd = {ms(bwd)}") + why_en,
                  explanation_zh=("全部桶的 AllReduce 总耗时不超过产生这些梯度的反向传播（T_comm ≤ T_bwd）时，"
                                  "就能被反向传播掩盖",
                                  f"  T_comm = {ms(comm)}，T_bwd = {ms(bwd)}") + why_zh,
                  takeaway=take[0], takeaway_zh=take[1], card_formulas=("ddp_exposed_comm_time",))),
        conventions_en=OVERLAP_EN, conventions_zh=OVERLAP_ZH,
        world=World(model=model, precision="bf16"),
    )


# --------------------------------------------------------------------------- #
# Tree vs ring (communication)

TREE_EN = ("α-β model. Ring AllReduce: 2(N−1) steps of latency α, 2(N−1)/N × M/β of transfer. Double binary tree "
           "(NCCL): 2·log₂N latency steps (reduce up, broadcast down) and about 2M/β of transfer. kB = 10³ B, "
           "MB = 10⁶ B, GB = 10⁹ B, GB/s = 10⁹ B/s.")
TREE_ZH = ("α-β 模型。Ring AllReduce：2(N−1) 步延迟 α，传输 2(N−1)/N × M/β。双二叉树（NCCL）：2·log₂N 步延迟"
           "（向上归约、向下广播），传输约 2M/β。kB = 10³ B，MB = 10⁶ B，GB = 10⁹ B，GB/s = 10⁹ B/s。")


@template("communication.tree_vs_ring", topic="communication", title="Tree vs ring AllReduce: ring time → tree time → which",
          title_zh="树形与环形 AllReduce：环形耗时 → 树形耗时 → 选哪个", difficulty=2, target_seconds=300,
          source="thakur2005, sanders2009, jeaugey2019")
def tree_vs_ring(rng):
    depth = rng.choice((6, 7, 8, 9, 10))
    n = 2 ** depth
    m = rng.choice((64e3, 256e3, 1e6, 4e6, 64e6, 256e6, 1e9))
    alpha, beta = rng.choice((2e-6, 5e-6, 10e-6)), rng.choice((25e9, 50e9))
    ring = formulas.get("allreduce_time").evaluate(m=m, n=n, alpha=alpha, beta=beta)
    tree = formulas.get("tree_allreduce_time").evaluate(m=m, depth=depth, alpha=alpha, beta=beta)
    if abs(ring / tree - 1) < 0.2:  # a clear winner: redraw the message size
        m = 64e3 if ring > tree else 1e9
        ring = formulas.get("allreduce_time").evaluate(m=m, n=n, alpha=alpha, beta=beta)
        tree = formulas.get("tree_allreduce_time").evaluate(m=m, depth=depth, alpha=alpha, beta=beta)
    ring_c, tree_c = Choice("ring", ("ring allreduce", "环", "环形"), "环形"), Choice("tree", ("tree allreduce", "树",
                                                                                          "树形", "double binary tree"), "树形")
    unit = "kB" if m < 1e6 else ("MB" if m < 1e9 else "GB")
    ur = unit_for("allreduce_time", m=m, n=n, alpha=alpha, beta=beta)
    ut = unit_for("tree_allreduce_time", m=m, depth=depth, alpha=alpha, beta=beta)
    mt = fmt_quantity(m, "bytes", unit=unit)
    t = _time
    ring_lat, tree_lat = 2 * (n - 1) * alpha, 2 * depth * alpha
    ring_bw, tree_bw = ring - ring_lat, tree - tree_lat
    extra_lat, saved_bytes = ring_lat - tree_lat, tree_bw - ring_bw  # saved_bytes = 2M/(Nβ)
    if ring < tree:
        why_en = (f"ring {t(ring)} < tree {t(tree)}: the bytes the ring saves, 2M/(N·β) = {t(saved_bytes)}, outweigh "
                  f"its extra latency, {t(extra_lat)}: ring")
        why_zh = (f"环形 {t(ring)} < 树形 {t(tree)}：环形在传输上省下的 2M/(N·β) = {t(saved_bytes)}，超过了它多付的延迟 "
                  f"{t(extra_lat)}：选环形")
    else:
        why_en = (f"tree {t(tree)} < ring {t(ring)}: the latency the tree saves, {t(extra_lat)} ({2 * depth} steps "
                  f"instead of {2 * (n - 1)}), outweighs the bytes it loses to the ring, 2M/(N·β) = {t(saved_bytes)}: "
                  "tree")
        why_zh = (f"树形 {t(tree)} < 环形 {t(ring)}：树形省下的延迟 {t(extra_lat)}（{2 * depth} 步而不是 "
                  f"{2 * (n - 1)} 步），超过了它在传输上比环形多花的 2M/(N·β) = {t(saved_bytes)}：选树形")
    return Spec(
        scenario_en=f"An AllReduce of M = {mt} over N = {n} GPUs (log₂N = {depth}), α = "
                    f"{fmt_quantity(alpha, 'time', unit='µs')}, β = {fmt_quantity(beta, 'bandwidth', unit='GB/s')}.",
        scenario_zh=f"在 N = {n} 张卡上（log₂N = {depth}）对 M = {mt} 做 AllReduce，α = "
                    f"{fmt_quantity(alpha, 'time', unit='µs')}，β = {fmt_quantity(beta, 'bandwidth', unit='GB/s')}。",
        givens=(given("m", "Message size M", "消息大小 M", m, "bytes", unit), given("n", "GPUs N", "卡数 N", n),
                given("depth", "Tree depth log₂N", "树深度 log₂N", depth),
                given("alpha", "Latency per step α", "每步延迟 α", alpha, "time", "µs"),
                given("beta", "Link bandwidth β (one way)", "单向链路带宽 β", beta, "bandwidth", "GB/s")),
        asks=(Ask(formula="allreduce_time", inputs={"m": m, "n": n, "alpha": alpha, "beta": beta}, unit=ur,
                  prompt_en=f"How long does a ring AllReduce take, in {ur}?",
                  prompt_zh=f"Ring AllReduce 耗时多少（{ur}）？"),
              Ask(formula="tree_allreduce_time", inputs={"m": m, "depth": depth, "alpha": alpha, "beta": beta}, unit=ut,
                  prompt_en=f"And a double-binary-tree AllReduce, in {ut}?",
                  prompt_zh=f"双二叉树 AllReduce 耗时多少（{ut}）？"),
              Ask(choices=(ring_c, tree_c), answer="ring" if ring < tree else "tree",
                  prompt_en="Which algorithm should NCCL pick for this message: ring or tree?",
                  prompt_zh="对这个消息，NCCL 应该选哪种算法：环形还是树形？",
                  explanation=(f"latency: ring 2(N−1)α = {t(ring_lat)}, tree 2·log₂N·α = {t(tree_lat)}",
                               f"bytes: ring 2(N−1)/N·M/β = {t(ring_bw)}, tree 2M/β = {t(tree_bw)}", why_en),
                  explanation_zh=(f"延迟：环形 2(N−1)α = {t(ring_lat)}，树形 2·log₂N·α = {t(tree_lat)}",
                                  f"传输：环形 2(N−1)/N·M/β = {t(ring_bw)}，树形 2M/β = {t(tree_bw)}", why_zh),
                  takeaway="weigh the latency the tree saves (2·log₂N steps instead of 2(N−1)) against the bytes the "
                           "ring saves (2M/(N·β)): small messages at scale go to the tree, large ones to the ring, and "
                           "NCCL switches by message size.",
                  takeaway_zh="权衡树形省下的延迟（2·log₂N 步而不是 2(N−1) 步）和环形省下的传输（2M/(N·β)）：大规模下"
                              "小消息走树形、大消息走环形，NCCL 正是按消息大小切换算法。",
                  card_formulas=("tree_allreduce_time",))),
        conventions_en=TREE_EN, conventions_zh=TREE_ZH,
    )


# --------------------------------------------------------------------------- #
# Chinchilla sizing and "is this MFU good?" (mfu)

# The tokens per parameter are stated from engine.convention_set (issue #24: 20, or Table 3's 21 when chosen).
CHIN_EN = "Chinchilla (Hoffmann et al. 2022): C = 6·N·D FLOPs. Parameters and tokens are plain counts (70B = 7e10)."
CHIN_ZH = "Chinchilla（Hoffmann 等 2022）：C = 6·N·D FLOPs。参数量和 token 数均为个数（70B = 7e10）。"
TRAIN_GPUS = tuple(g for g in hardware.with_dtype("bf16") if g.key != "l40s")


@template("mfu.chinchilla_tokens", topic="mfu", title="Chinchilla-optimal tokens for a model",
          title_zh="模型的 Chinchilla 最优 token 数", difficulty=1, target_seconds=30, source="hoffmann2022", conventions=("tokens_per_param",))
def chinchilla_tokens(rng):
    name, phi = model_phi(rng, models.DENSE)
    return Spec(
        givens=(phi_given(phi),),
        world=World(model=next((m for m in models.MODELS if m.name == name), None), phi=phi),
        asks=(Ask(formula="chinchilla_tokens", unit="",
                  prompt_en=f"How many training tokens are compute-optimal for {name} (Φ = {phi_text(phi)})?",
                  prompt_zh=f"{zh_model(name)}（Φ = {phi_text(phi)}）的计算最优训练 token 数是多少？"),),
        conventions_en=CHIN_EN, conventions_zh=CHIN_ZH,
    )


@template("mfu.chinchilla_params", topic="mfu", title="Chinchilla-optimal model for a compute budget",
          title_zh="给定算力预算的 Chinchilla 最优模型规模", difficulty=2, target_seconds=90, source="hoffmann2022", conventions=("tokens_per_param",))
def chinchilla_params(rng):
    c = rng.randrange(10, 100) / 10 * 10.0 ** rng.choice((22, 23, 24, 25))
    return Spec(
        givens=(given("compute", "Compute budget C", "算力预算 C", float(c), "flop", "FLOP"),),
        asks=(Ask(formula="chinchilla_params", unit="",
                  prompt_en=f"With a training budget of C = {fmt_number(c)} FLOPs, how many parameters should a "
                            "compute-optimal model have?",
                  prompt_zh=f"训练预算为 C = {fmt_number(c)} FLOPs 时，计算最优的模型应有多少参数？"),),
        conventions_en=CHIN_EN, conventions_zh=CHIN_ZH,
    )


@template("mfu.chinchilla_chain", topic="mfu", title="Size a run: cluster budget → optimal model → optimal tokens",
          title_zh="规划训练：集群算力预算 → 最优模型 → 最优 token 数", difficulty=2, target_seconds=300,
          source="hoffmann2022, chowdhery2022", conventions=("tokens_per_param",))
def chinchilla_chain(rng):
    gpu = rng.choice(TRAIN_GPUS)
    n, days, mfu = rng.choice((512, 1024, 2048, 4096, 8192)), rng.choice((14, 30, 60, 90)), rng.choice((0.35, 0.4, 0.45))
    seconds = days * 86400.0
    budget = {"n_gpus": n, "peak_flops": gpu.bf16, "mfu": mfu, "time": seconds}
    return Spec(
        scenario_en=f"You have {n} {gpu.name} GPUs for {days} days at {fmt_number(mfu * 100)}% MFU.",
        scenario_zh=f"你有 {n} 张 {gpu.name}，可用 {days} 天，MFU 为 {fmt_number(mfu * 100)}%。",
        givens=(given("n_gpus", "GPUs N", "卡数 N", n),
                kit.named_peak(gpu),
                given("mfu", "MFU", "MFU", mfu, "ratio", "%"), given("time", "Training time", "训练时长", seconds, "time", "s")),
        asks=(Ask(formula="compute_budget", inputs=budget, unit="FLOP",
                  prompt_en=f"How many FLOPs can the run deliver in {days} days ({fmt_number(seconds)} s)?",
                  prompt_zh=f"{days} 天（{fmt_number(seconds)} s）内这次训练能提供多少 FLOPs？"),
              Ask(formula="chinchilla_params", inputs={"compute": Ref(0)}, unit="",
                  prompt_en="How many parameters should the compute-optimal model have?",
                  prompt_zh="计算最优的模型应有多少参数？"),
              Ask(formula="chinchilla_tokens", inputs={"phi": Ref(1)}, unit="",
                  prompt_en="And how many training tokens?", prompt_zh="训练 token 数又是多少？")),
        conventions_en=CHIN_EN + " Peak = dense bf16 (no sparsity); TFLOPS = 10¹² FLOP/s; 1 day = 86,400 s.",
        conventions_zh=CHIN_ZH + "峰值为 bf16 稠密算力（不含稀疏）；TFLOPS = 10¹² FLOP/s；1 天 = 86,400 s。",
        world=World(gpu=gpu, precision="bf16"),
    )


# The loss law: what over-training past 20 tokens per parameter buys (Hoffmann et al. 2022, approach 3)
LOSS_EN = ("Chinchilla's loss fit (Hoffmann et al. 2022, approach 3): E = 1.69 nats, A = 406.4, α = 0.34, "
           "B = 410.7, β = 0.28, with N parameters and D training tokens; compute-optimal training uses about 20 tokens "
           "per parameter and C = 6·N·D FLOPs. Parameters and tokens are plain counts (8B = 8e9).")
LOSS_ZH = ("Chinchilla 的损失拟合（Hoffmann 等 2022，方法 3）：E = 1.69 nat，A = 406.4，α = 0.34，B = 410.7，β = 0.28，"
           "N 为参数量、D 为训练 token 数；计算最优的训练约为每个参数 20 个 token，且 C = 6·N·D FLOPs。参数量和 token 数"
           "均为个数（8B = 8e9）。")
LOSS_TOLERANCE, LOSS_CLOSE = 0.003, 0.02  # losses of rival runs differ by about 1 %: graded to three figures
# Dense models of round sizes trained on 50 to 4,000 tokens per parameter, at most 40T tokens: published runs range
# from Chinchilla's 20 (Chinchilla 70B: 1.4T) through Llama 3 8B (15T, about 1,900 per parameter) to Qwen3 8B
# (36T, about 4,400)
LOSS_PHI = (1.5e9, 1.7e9, 3e9, 4e9, 7e9, 8e9, 13e9, 14e9, 32e9, 70e9)
LOSS_TOKENS_PER_PARAM = (50, 100, 200, 300, 500, 1000, 1500, 2000, 3000, 4000)
MAX_TOKENS = 40e12


def _trained(rng, least: int = 50) -> tuple[float, float, int]:
    """A model size, its training tokens and tokens per parameter (at least ``least``)."""
    while True:
        phi, k = rng.choice(LOSS_PHI), rng.choice([k for k in LOSS_TOKENS_PER_PARAM if k >= least])
        # no power of ten among N and D: "(10¹²)^0.28" is shown as "10¹²^0.28", which reads as 10^(12^0.28)
        if phi * k <= MAX_TOKENS and not float(math.log10(phi * k)).is_integer():
            return phi, phi * k, k


def _trained_givens(phi: float, tokens: float) -> tuple:
    return (given("phi", "Parameters N", "参数量 N", phi, "count", "params"),
            given("tokens", "Training tokens D", "训练 token 数 D", tokens, "count", "tokens"))


def _tokens_text(tokens: float) -> str:
    return f"{fmt_number(tokens / 1e12)}T" if tokens >= 1e12 else f"{fmt_number(tokens / 1e9)}B"


@template("mfu.chinchilla_loss", topic="mfu", title="Loss predicted by the Chinchilla law",
          title_zh="Chinchilla 损失定律预测的损失", difficulty=2, target_seconds=150, source="hoffmann2022")
def chinchilla_loss(rng):
    phi, tokens, k = _trained(rng)
    return Spec(
        givens=_trained_givens(phi, tokens),
        asks=(Ask(formula="chinchilla_loss", inputs={"phi": phi, "tokens": tokens}, unit="nats",
                  tolerance=LOSS_TOLERANCE, close=LOSS_CLOSE,
                  prompt_en=f"{an(phi_text(phi) + '-parameter', cap=True)} dense model is pre-trained on "
                            f"{_tokens_text(tokens)} tokens "
                            f"({k:,} per parameter). What loss does Chinchilla's fit predict for it, in nats?",
                  prompt_zh=f"一个 {phi_text(phi)} 参数的稠密模型预训练用了 {_tokens_text(tokens)} 个 token（每个参数 "
                            f"{k:,} 个）。Chinchilla 的拟合预测它的损失是多少（nat）？"),),
        conventions_en=LOSS_EN, conventions_zh=LOSS_ZH,
        world=World(phi=phi),
    )


def _overtraining_takeaway(loss: float, loss_opt: float, ratio: float) -> tuple[str, str]:
    """What the over-trained model gave up against the compute-optimal one of the same compute, by the fit."""
    cost = loss - loss_opt
    if cost > 0.001:
        return (f"for the same compute the compute-optimal model would reach {loss_opt:.3f} nats against {loss:.3f}: "
                f"over-training gave up {cost:.3f} nats for a model {ratio:.1f}× smaller, {ratio:.1f}× cheaper per "
                "token to serve. That is why models meant for wide serving train far past 20 tokens per parameter.",
                f"同样的算力下，计算最优模型的损失是 {loss_opt:.3f} nat，对比 {loss:.3f}：过度训练只多了 {cost:.3f} nat "
                f"的损失，换来小 {ratio:.1f} 倍、每 token 推理便宜 {ratio:.1f} 倍的模型。这就是要大规模部署的模型远超每参数 "
                "20 个 token 训练的原因。")
    return (f"for the same compute the compute-optimal model would reach {loss_opt:.3f} nats against {loss:.3f}: by this "
            f"fit over-training cost nothing measurable (this fit's own optimum lies above 20 tokens per parameter at "
            f"this compute), and the model is {ratio:.1f}× smaller, {ratio:.1f}× cheaper per token to serve. That is "
            "why models meant for wide serving train far past 20 tokens per parameter.",
            f"同样的算力下，计算最优模型的损失是 {loss_opt:.3f} nat，对比 {loss:.3f}：按这个拟合，过度训练几乎没有损失"
            f"（在这个算力下，该拟合自身的最优点高于每参数 20 个 token），模型却小 {ratio:.1f} 倍、每 token 推理便宜 "
            f"{ratio:.1f} 倍。这就是要大规模部署的模型远超每参数 20 个 token 训练的原因。")


@template("mfu.overtraining_chain", topic="mfu",
          title="What over-training buys: its loss → the compute-optimal model of the same compute → that model's loss",
          title_zh="过度训练换来了什么：它的损失 → 同等算力下的计算最优模型 → 该模型的损失", difficulty=3,
          target_seconds=420, source="hoffmann2022")
def overtraining_chain(rng):
    phi, tokens, k = _trained(rng, least=100)
    compute = 6 * phi * tokens
    n_opt = formulas.get("chinchilla_params").evaluate(compute=compute)
    loss = formulas.get("chinchilla_loss").evaluate(phi=phi, tokens=tokens)
    loss_opt = formulas.get("chinchilla_loss").evaluate(phi=n_opt, tokens=20 * n_opt)
    ratio = n_opt / phi
    return Spec(
        scenario_en=f"{an(phi_text(phi) + '-parameter', cap=True)} dense model is pre-trained on "
                    f"{_tokens_text(tokens)} tokens: "
                    f"{k:,} per parameter, far past Chinchilla's 20, as models meant to be served widely are. What "
                    "does spending the compute that way buy?",
        scenario_zh=f"一个 {phi_text(phi)} 参数的稠密模型预训练用了 {_tokens_text(tokens)} 个 token：每个参数 {k:,} 个，"
                    "远超 Chinchilla 的 20 个，要大规模部署的模型正是这样训练的。这样花算力换来了什么？",
        givens=_trained_givens(phi, tokens),
        asks=(Ask(formula="chinchilla_loss", inputs={"phi": phi, "tokens": tokens}, unit="nats",
                  tolerance=LOSS_TOLERANCE, close=LOSS_CLOSE,
                  prompt_en="What loss does Chinchilla's fit predict for this model, in nats?",
                  prompt_zh="Chinchilla 的拟合预测这个模型的损失是多少（nat）？"),
              Ask(formula="chinchilla_params", inputs={"compute": compute}, unit="",
                  explanation=(f"C = 6 × N × D = 6 × {fmt_number(phi)} × {fmt_number(tokens)} = "
                               f"{fmt_number(compute)} FLOPs",),
                  explanation_zh=(f"C = 6 × N × D = 6 × {fmt_number(phi)} × {fmt_number(tokens)} = "
                                  f"{fmt_number(compute)} FLOPs",),
                  prompt_en="With the same training compute, how many parameters would the compute-optimal model "
                            "have?",
                  prompt_zh="用同样的训练算力，计算最优的模型应有多少参数？"),
              Ask(formula="chinchilla_loss", inputs={"phi": Ref(1), "tokens": 20 * n_opt}, unit="nats",
                  tolerance=LOSS_TOLERANCE, close=LOSS_CLOSE,
                  explanation=(f"D_opt = 20 × N_opt = 20 × {fmt_number(n_opt)} = {fmt_number(20 * n_opt)} tokens",),
                  explanation_zh=(f"D_opt = 20 × N_opt = 20 × {fmt_number(n_opt)} = {fmt_number(20 * n_opt)} 个 token",),
                  takeaway=_overtraining_takeaway(loss, loss_opt, ratio)[0],
                  takeaway_zh=_overtraining_takeaway(loss, loss_opt, ratio)[1],
                  prompt_en="And what loss would that compute-optimal model, trained on 20 tokens per parameter, "
                            "reach, in nats?",
                  prompt_zh="这个计算最优的模型按每参数 20 个 token 训练，损失又是多少（nat）？")),
        conventions_en=LOSS_EN, conventions_zh=LOSS_ZH,
        world=World(phi=phi),
    )


MFU_EN = ("Peak = dense bf16 tensor-core FLOP/s from the datasheet (no 2:4 sparsity); TFLOPS = 10¹² FLOP/s. MFU counts "
          "6Φ FLOPs per token; HFU adds the recomputed forward (8Φ with full recomputation). Published large dense "
          "runs on A100/H100 reach about 35-55% MFU (PaLM 46%, Llama 3 405B 38-43%): below 30% is low, above 65% is "
          "implausible for dense training (check the FLOP count and whether the sparse peak was used).")
MFU_ZH = ("峰值取数据手册中 bf16 Tensor Core 稠密算力（不含 2:4 稀疏）；TFLOPS = 10¹² FLOP/s。MFU 按每 token 6Φ 计；HFU 再加上"
          "重计算的前向（全量重计算为 8Φ）。公开的大规模稠密训练在 A100/H100 上 MFU 约 35-55%（PaLM 46%，Llama 3 405B "
          "38-43%）：低于 30% 偏低，高于 65% 对稠密训练不可信（检查 FLOP 计数以及是否用了稀疏峰值）。")


@template("mfu.mfu_judgement", topic="mfu", title="Is this MFU good? MFU → HFU → verdict",
          title_zh="这个 MFU 好吗？MFU → HFU → 判断", difficulty=2, target_seconds=300, source="chowdhery2022")
def mfu_judgement(rng):
    model = rng.choice([m for m in models.DENSE if m.params >= 7e9])
    phi = nominal_phi(model)
    gpu = rng.choice(TRAIN_GPUS)
    n = rng.choice((64, 128, 256, 512, 1024))
    level = rng.choice((0.22, 0.25, 0.4, 0.45, 0.5, 0.72, 0.8))
    tps = float(f"{level * n * gpu.bf16 / (6 * phi):.3g}")
    mfu = formulas.get("mfu").evaluate(tokens_per_s=tps, phi=phi, n_gpus=n, peak_flops=gpu.bf16)
    low = Choice("low", ("too low", "poor", "偏低", "低"), "偏低")
    typical = Choice("typical", ("good", "normal", "fine", "reasonable", "正常", "合理"), "正常")
    implausible = Choice("implausible", ("too high", "suspicious", "impossible", "不可信", "可疑"), "不可信")
    answer = "low" if mfu < 0.3 else ("typical" if mfu <= 0.65 else "implausible")
    pc = fmt_number(mfu * 100)
    hfu_value = formulas.get("hfu").evaluate(tokens_per_s=tps, phi=phi, n_gpus=n, peak_flops=gpu.bf16)
    hfu = fmt_number(hfu_value * 100)
    over = hfu_value > 1  # the hardware would execute more than its peak
    verdict_en = {
        "low": f"{pc}% < 30%: low; the GPUs wait most of the time: look for exposed communication, pipeline bubbles, "
               "small kernels or a stalled input pipeline",
        "typical": f"30% ≤ {pc}% ≤ 65%: within what published dense runs reach: typical",
        "implausible": f"{pc}% > 65%: beyond any published dense run: implausible; recheck the FLOPs per token, the "
                       "measured throughput and whether the 2:4-sparse peak crept in"
                       + (f" (an HFU of {hfu}% would be more than the hardware's peak)" if over else ""),
    }[answer]
    verdict_zh = {
        "low": f"{pc}% < 30%：偏低；GPU 大部分时间在等待：去查暴露的通信、流水线气泡、小算子或数据加载卡顿",
        "typical": f"30% ≤ {pc}% ≤ 65%：处在公开稠密训练达到的范围内：正常",
        "implausible": f"{pc}% > 65%：超过了所有公开的稠密训练：不可信；复查每 token 的 FLOPs、实测吞吐，以及是否误用了 "
                       "2:4 稀疏峰值" + (f"（HFU {hfu}% 意味着硬件跑得比峰值还快）" if over else ""),
    }[answer]
    return Spec(
        scenario_en=f"A team reports {fmt_number(tps)} tokens/s training {model.name} (Φ = {phi_text(phi)}) on {n} "
                    f"{gpu.name} GPUs with full activation recomputation.",
        scenario_zh=f"某团队报告：在 {n} 张 {gpu.name} 上训练 {model.name}（Φ = {phi_text(phi)}），开启全量激活重计算，"
                    f"吞吐 {fmt_number(tps)} tokens/s。",
        givens=(phi_given(phi), given("tokens_per_s", "Throughput", "吞吐", tps, "tok_rate", "tok/s"),
                given("n_gpus", "GPUs N", "卡数 N", n),
                kit.named_peak(gpu)),
        asks=(Ask(formula="mfu", unit="%", prompt_en="What MFU is that, in %?", prompt_zh="对应的 MFU 是多少（%）？"),
              Ask(formula="hfu", unit="%", prompt_en="And the HFU with full recomputation, in %?",
                  prompt_zh="全量重计算下的 HFU 又是多少（%）？"),
              Ask(choices=(low, typical, implausible), answer=answer,
                  prompt_en="Is the MFU low, typical or implausible for dense LLM training?",
                  prompt_zh="对稠密大模型训练而言，这个 MFU 是偏低、正常还是不可信？",
                  explanation=(f"judge MFU, not HFU: MFU = {pc}%; the HFU of {hfu}% is 8/6 of it because the "
                               "recomputed forward keeps the GPUs busy without training the model any faster",
                               "yardstick: published large dense runs reach 35-55% MFU (PaLM 46%, Llama 3 405B "
                               "38-43%)", verdict_en),
                  explanation_zh=(f"判断看 MFU 而不是 HFU：MFU = {pc}%；HFU {hfu}% 是它的 8/6 倍，因为重计算的前向让 "
                                  "GPU 更忙，却不会让模型训练得更快",
                                  "参照：公开的大规模稠密训练 MFU 约 35-55%（PaLM 46%，Llama 3 405B 38-43%）", verdict_zh),
                  takeaway="judge a run by its MFU, never its HFU: below 30 % find the bottleneck, above 65 % recheck "
                           "the arithmetic before believing it.",
                  takeaway_zh="评价一次训练要看 MFU，而不是 HFU：低于 30% 要找瓶颈，高于 65% 先复查计算再相信它。",
                  card_formulas=("mfu",))),
        conventions_en=MFU_EN, conventions_zh=MFU_ZH,
        world=World(model=model, gpu=gpu, precision="bf16", judges_claim=True),
    )


# --------------------------------------------------------------------------- #
# 1F1B in-flight micro-batches and interleaving memory (pipeline)

PIPE_EN = ("1F1B schedule with m ≥ P micro-batches: stage k (1 = first) runs P − k + 1 forwards before its first "
           "backward, so it holds that many micro-batches' activations at its peak (GPipe holds all m). The model "
           "splits evenly: L/P layers per stage. MB = 10⁶ B, GB = 10⁹ B.")
PIPE_ZH = ("1F1B 调度，微批次数 m ≥ P：第 k 个阶段（1 为第一个）在第一次反向之前先做 P − k + 1 次前向，因此峰值时保存这么多"
           "个微批次的激活值（GPipe 则保存全部 m 个）。模型均匀切分：每阶段 L/P 层。MB = 10⁶ B，GB = 10⁹ B。")


def _pipe_setup(rng):
    model = rng.choice([m for m in models.DENSE if m.layers % 8 == 0])
    p = rng.choice([x for x in (4, 8) if model.layers % x == 0])
    m = rng.choice((16, 32, 64))
    return model, p, m


@template("pipeline.inflight_1f1b", topic="pipeline", title="1F1B in-flight micro-batches on a stage",
          title_zh="1F1B 某阶段在途的微批次数", difficulty=2, target_seconds=60, source="narayanan2021")
def inflight_1f1b(rng):
    p = rng.choice((4, 6, 8, 12, 16))
    k, m = rng.randint(1, p), rng.choice((32, 48, 64))
    return Spec(
        givens=(given("p", "Pipeline stages P", "流水线阶段数 P", p), given("stage", "Stage k", "阶段 k", k),
                given("m", "Micro-batches per step m", "每步微批次数 m", m)),
        asks=(Ask(formula="inflight_microbatches_1f1b", inputs={"p": p, "stage": k}, integer=True, tolerance=0.001,
                  unit="", extras={"m": m},
                  prompt_en=f"A 1F1B pipeline of P = {p} stages runs m = {m} micro-batches per step. At its peak, "
                            f"how many micro-batches' activations does stage k = {k} hold?",
                  prompt_zh=f"一个 P = {p} 阶段的 1F1B 流水线每步跑 m = {m} 个微批次。峰值时，第 k = {k} 个阶段保存"
                            "多少个微批次的激活值？"),),
        conventions_en=PIPE_EN + " A whole number.", conventions_zh=PIPE_ZH + "答案为整数。",
    )


@template("pipeline.inflight_memory_chain", topic="pipeline",
          title="1F1B activation memory: in-flight micro-batches → first stage → GPipe",
          title_zh="1F1B 激活显存：在途微批次 → 第一阶段 → GPipe", difficulty=3, target_seconds=360,
          source="narayanan2021, huang2019, korthikanti2022")
def inflight_memory_chain(rng):
    model, p, m = _pipe_setup(rng)
    s = rng.choice([x for x in (2048, 4096) if x <= model.max_seq])
    layer = formulas.get("activation_bytes_layer_tp_sp").evaluate(s=s, b=1, h=model.d_model, a=model.n_heads, t=8)
    layer = float(f"{layer:.3g}")
    per = model.layers // p
    u1 = unit_for("stage_activation_bytes", inflight=p, stage_layers=per, layer_bytes=layer)
    u2 = unit_for("stage_activation_bytes", inflight=m, stage_layers=per, layer_bytes=layer)
    times = fmt_number(m / p)
    return Spec(
        scenario_en=f"{model.name} ({model.layers} layers) on a P = {p} pipeline, m = {m} micro-batches per step; one "
                    f"layer keeps {fmt_quantity(layer, 'bytes', unit='MB')} of activations per micro-batch on each GPU.",
        scenario_zh=f"{model.name}（{model.layers} 层）做 P = {p} 的流水线，每步 m = {m} 个微批次；每张卡上单层每个微批次"
                    f"保存 {fmt_quantity(layer, 'bytes', unit='MB')} 激活值。",
        givens=(given("p", "Pipeline stages P", "流水线阶段数 P", p), given("m", "Micro-batches per step m", "每步微批次数 m", m),
                given("layers", "Layers L", "层数 L", model.layers),
                given("layer_bytes", "Activations per layer and micro-batch", "每层每个微批次的激活值", layer, "bytes", "MB")),
        asks=(Ask(formula="inflight_microbatches_1f1b", inputs={"p": p, "stage": 1}, integer=True, tolerance=0.001,
                  unit="", extras={"m": m},
                  prompt_en="With 1F1B, how many micro-batches does the FIRST stage hold at its peak?",
                  prompt_zh="采用 1F1B 时，第一个阶段峰值时保存多少个微批次？"),
              Ask(formula="stage_activation_bytes", inputs={"inflight": Ref(0), "stage_layers": per, "layer_bytes": layer},
                  unit=u1,
                  prompt_en=f"Its {per} layers keep how much activation memory at that peak, in {u1}?",
                  prompt_zh=f"这个阶段的 {per} 层在峰值时保存多少激活显存（{u1}）？"),
              Ask(formula="stage_activation_bytes", inputs={"inflight": m, "stage_layers": per, "layer_bytes": layer},
                  unit=u2,
                  prompt_en=f"With GPipe (all forwards, then all backwards), how much would that stage hold, in {u2}?",
                  prompt_zh=f"若用 GPipe（先做完全部前向再做反向），这个阶段要保存多少（{u2}）？",
                  explanation=(f"GPipe runs all m forwards before the first backward: every micro-batch of the step is "
                               f"in flight, n_inflight = m = {m}",),
                  explanation_zh=(f"GPipe 在第一次反向之前做完全部 m 次前向：一步里的所有微批次都在途，n_inflight = m = {m}",),
                  takeaway=f"GPipe holds all m = {m} micro-batches, m/P = {times}× the 1F1B peak: the same bubble at "
                           f"{times}× the activation memory is why 1F1B replaced it.",
                  takeaway_zh=f"GPipe 保存全部 m = {m} 个微批次，是 1F1B 峰值的 m/P = {times} 倍：气泡一样大，激活显存却是 "
                              f"{times} 倍，这就是 1F1B 取代它的原因。")),
        conventions_en=PIPE_EN, conventions_zh=PIPE_ZH,
        world=World(model=model, precision="bf16", seq=s),
    )


INTERLEAVE_EN = ("Interleaved 1F1B: each GPU holds v non-adjacent model chunks; the bubble is the idle share of the "
                 "TOTAL step time. Korthikanti et al. 2022 (§4.2.3): the first stage's activation memory grows by the "
                 "factor 1 + (P − 1)/(P·v) over plain 1F1B.")
INTERLEAVE_ZH = ("交错式 1F1B：每张卡持有 v 个不相邻的模型块；气泡率指空闲时间占一步总时间的比例。Korthikanti 等 2022"
                 "（§4.2.3）：第一阶段的激活显存是普通 1F1B 的 1 + (P − 1)/(P·v) 倍。")


@template("pipeline.interleaving_tradeoff", topic="pipeline",
          title="Interleaving's trade-off: plain bubble → interleaved bubble → memory factor",
          title_zh="交错调度的代价：普通气泡 → 交错气泡 → 显存倍数", difficulty=3, target_seconds=300,
          source="narayanan2021, korthikanti2022")
def interleaving_tradeoff(rng):
    p = rng.choice((2, 4, 6, 8, 12, 16))
    m = rng.choice([x for x in (8, 12, 16, 24, 32, 48, 64) if x >= p])
    v = rng.choice((2, 3, 4))
    return Spec(
        scenario_en=f"A P = {p} pipeline runs m = {m} micro-batches per step; you consider v = {v} virtual stages per GPU.",
        scenario_zh=f"一个 P = {p} 的流水线每步 m = {m} 个微批次；你考虑每卡 v = {v} 个虚拟阶段。",
        givens=(given("p", "Pipeline stages P", "流水线阶段数 P", p), given("m", "Micro-batches per step m", "每步微批次数 m", m),
                given("v", "Virtual stages per GPU v", "每卡虚拟阶段数 v", v)),
        asks=(Ask(formula="bubble_1f1b", inputs={"p": p, "m": m}, unit="%",
                  prompt_en="With plain 1F1B, what is the bubble, in %?", prompt_zh="普通 1F1B 的气泡率是多少（%）？"),
              Ask(formula="bubble_interleaved", inputs={"p": p, "m": m, "v": v}, unit="%",
                  prompt_en=f"With interleaving (v = {v}), what is the bubble, in %?",
                  prompt_zh=f"交错调度（v = {v}）下气泡率是多少（%）？"),
              Ask(formula="interleaved_activation_factor", inputs={"p": p, "v": v}, unit="",
                  prompt_en="By what factor does the first stage's activation memory grow over plain 1F1B?",
                  prompt_zh="第一阶段的激活显存是普通 1F1B 的多少倍？")),
        conventions_en=INTERLEAVE_EN, conventions_zh=INTERLEAVE_ZH,
    )
