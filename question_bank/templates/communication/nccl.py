"""NCCL templates: algbw against busbw, tree against ring, DDP's hidden AllReduce.

NCCL templates: nccl-tests' algbw against busbw, tree against ring AllReduce, and how much of DDP's
gradient AllReduce the backward pass hides.
"""

from __future__ import annotations

from engine import formulas
from engine.choices import Choice
from engine.units import fmt_number, fmt_quantity

from ... import hardware, models
from ...spec import Ask, Ref, Spec, World, given
from ...template import template
from ..chip_givens import an
from ..model_params import nominal_phi, phi_given, phi_text, unit_for

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
        nvlink = hardware.nvlink_of(gpu)
        assert nvlink is not None  # chosen for its NVLink
        link, n, where_en, where_zh = nvlink, 8, "one 8-GPU node", "单个 8 卡节点"
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
    # AllReduce, so the communication pays k latency terms, not one
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
