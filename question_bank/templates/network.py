"""The network fabric (issue #26): hosts of a fat tree from the switch radix, bisection bandwidth with
oversubscription, and a two-level (hierarchical) all-reduce over NVLink and one NIC rail per GPU."""

from __future__ import annotations

from engine import formulas
from engine.units import fmt_quantity

from .. import hardware, ranges
from ..base import Ask, Ref, Spec, World, given, template
from .roofline import an

# Radices of real switches in the range switch_radix: NDR QM9700 (64), SN5600 (128 x 400 GbE), Quantum-X800 (144)
RADICES = (64, 128, 144)
NIC_GBS = (50e9, 100e9)  # 400 / 800 Gb/s per host, one direction (range scaleout_nic_per_gpu)
HOST_LINKS = ("ib_hdr", "ib_ndr", "ib_xdr")  # a host's fabric link: 200 / 400 / 800 Gb/s InfiniBand (the catalogue)
# Uplink tapers o:1; 7:1 is Llama 3's RoCE fabric above its non-blocking 3,072-GPU pods (arXiv:2407.21783 §3.3.1)
OVERSUBSCRIPTIONS = (1.5, 2, 3, 4, 7)

TREE_CONV_EN = ("A fat tree (folded Clos) of identical k-port switches, non-blocking unless an oversubscription is "
                "stated: below the top tier half of each switch's ports face down, half up. One link per host. "
                "Bisection bandwidth counts one direction. GB/s = 10⁹ B/s, TB/s = 10¹² B/s.")
TREE_CONV_ZH = ("由相同的 k 口交换机组成的胖树（折叠 Clos），除非注明收敛比，否则为无阻塞：顶层以下每台交换机一半端口朝下、"
                "一半朝上。每台主机一条链路。对分带宽只计单向。GB/s = 10⁹ B/s，TB/s = 10¹² B/s。")
HIER_CONV_EN = ("Bandwidth terms only (no latency α). Rail-optimised nodes of g GPUs: NVLink inside a node, one NIC per "
                "GPU between nodes; the in-node and cross-node phases do not overlap. GB = 10⁹ B, GB/s = 10⁹ B/s.")
HIER_CONV_ZH = ("只计带宽项（不计延迟 α）。轨道优化的节点，每节点 g 张卡：节点内走 NVLink，节点间每卡一块网卡；"
                "节点内与跨节点两个阶段不重叠。GB = 10⁹ B，GB/s = 10⁹ B/s。")


def _bw(v: float) -> str:
    return fmt_quantity(v, "bandwidth", unit="GB/s")


def _radix_note() -> tuple[str, str]:
    r = ranges.get("switch_radix")
    return (f"(data-center switches had {r.low:g} to {r.high:g} ports as of {r.as_of[:7]})",
            f"（截至 {r.as_of[:7]}，数据中心交换机有 {r.low:g} 到 {r.high:g} 个端口）")


def _fabric(rng) -> dict:
    k = rng.choice(RADICES)
    link = hardware.LINKS_BY_KEY[rng.choice(HOST_LINKS)].one_way
    return {"k": k, "link": link, "o": rng.choice(OVERSUBSCRIPTIONS)}


@template("communication.bisection_bandwidth", topic="communication",
          title="Bisection bandwidth of an oversubscribed fabric", title_zh="有收敛的网络的对分带宽",
          difficulty=2, target_seconds=90, source="alfares2008")
def bisection_bandwidth(rng):
    f = _fabric(rng)
    hosts = rng.choice((512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384))
    inputs = {"n_hosts": hosts, "link_bandwidth": f["link"], "oversubscription": f["o"], "directions": 1}
    return Spec(
        givens=(given("n_hosts", "Hosts", "主机数", hosts),
                given("link_bandwidth", "Host link, one way", "主机链路单向带宽", f["link"], "bandwidth", "GB/s"),
                given("oversubscription", "Oversubscription o:1", "收敛比 o:1", f["o"])),
        asks=(Ask(formula="bisection_bandwidth", inputs=inputs, unit="TB/s",
                  prompt_en=f"A cluster fabric connects {hosts:,} hosts at {_bw(f['link'])} each, with the uplinks "
                            f"oversubscribed {f['o']:g}:1. What is its bisection bandwidth (one direction), in TB/s?",
                  prompt_zh=f"一个集群网络连接 {hosts:,} 台主机，每台 {_bw(f['link'])}，上行链路收敛比为 {f['o']:g}:1。"
                            "它的对分带宽（单向）是多少（TB/s）？"),),
        conventions_en=TREE_CONV_EN, conventions_zh=TREE_CONV_ZH,
    )


@template("communication.fabric_chain", topic="communication",
          title="Fabric sizing: fat-tree hosts from the switch radix → bisection bandwidth with tapered uplinks",
          title_zh="网络规划：胖树主机数 → 收敛后的对分带宽", difficulty=3, target_seconds=240, source="alfares2008")
def fabric_chain(rng):
    f, tiers = _fabric(rng), rng.choice((2, 3))
    note_en, note_zh = _radix_note()
    return Spec(
        scenario_en=f"A {tiers}-tier fat tree of {f['k']}-port switches {note_en}, every leaf filled with hosts at "
                    f"{_bw(f['link'])} each. To save spine switches, the operator keeps the same hosts but tapers the "
                    f"leaf uplinks to {f['o']:g}:1.",
        scenario_zh=f"由 {f['k']} 口交换机组成的 {tiers} 层胖树{note_zh}，每台叶交换机都接满主机，每台主机 {_bw(f['link'])}。"
                    f"为了省下脊交换机，运营方保持主机不变，把叶交换机的上行链路收敛到 {f['o']:g}:1。",
        givens=(given("radix", "Switch radix k", "交换机端口数 k", f["k"]), given("tiers", "Switch tiers", "交换机层数", tiers),
                given("link_bandwidth", "Host link, one way", "主机链路单向带宽", f["link"], "bandwidth", "GB/s"),
                given("oversubscription", "Oversubscription o:1", "收敛比 o:1", f["o"])),
        asks=(Ask(formula="fat_tree_hosts", inputs={"radix": f["k"], "tiers": tiers}, unit="",
                  prompt_en=f"Built non-blocking, how many hosts does the {tiers}-tier fat tree connect?",
                  prompt_zh=f"按无阻塞搭建时，这个 {tiers} 层胖树能连接多少台主机？"),
              Ask(formula="bisection_bandwidth", unit="TB/s",
                  inputs={"n_hosts": Ref(0), "link_bandwidth": f["link"], "oversubscription": f["o"], "directions": 1},
                  prompt_en=f"With the same hosts and the uplinks at {f['o']:g}:1, what is the bisection bandwidth (one "
                            "direction), in TB/s?",
                  prompt_zh=f"主机不变、上行收敛比为 {f['o']:g}:1 时，对分带宽（单向）是多少（TB/s）？")),
        conventions_en=TREE_CONV_EN, conventions_zh=TREE_CONV_ZH,
    )


@template("communication.hierarchical_allreduce", topic="communication",
          title="Hierarchical all-reduce: NVLink in the node, one rail across nodes",
          title_zh="分层 AllReduce：节点内走 NVLink，跨节点走一条轨道", difficulty=3, target_seconds=180,
          source="sergeev2018")
def hierarchical_allreduce(rng):
    gpu = rng.choice([g for g in hardware.GPUS if g.key in ("h100_sxm", "h200", "b200")])
    intra, inter = hardware.nvlink_of(gpu).one_way, rng.choice(NIC_GBS)
    nodes, size = rng.choice((4, 8, 16, 32, 64)), rng.choice((2, 4, 8, 14, 16, 28)) * 1e9
    inputs = {"m": size, "gpus_per_node": 8, "n_nodes": nodes, "intra_bandwidth": intra, "inter_bandwidth": inter,
              "overlap": 0}
    return Spec(
        givens=(given("m", "Message size", "消息大小", size, "bytes", "GB"),
                given("gpus_per_node", "GPUs per node g", "每节点 GPU 数 g", 8),
                given("n_nodes", "Nodes n", "节点数 n", nodes),
                given("intra_bandwidth", "NVLink per GPU, one way", "每卡 NVLink 单向带宽", intra, "bandwidth", "GB/s"),
                given("inter_bandwidth", "NIC per GPU, one way", "每卡网卡单向带宽", inter, "bandwidth", "GB/s")),
        asks=(Ask(formula="hierarchical_allreduce_time", inputs=inputs, unit="ms",
                  prompt_en=f"Data parallelism over {nodes} nodes of 8 {gpu.name} GPUs all-reduces "
                            f"{an(fmt_quantity(size, 'bytes', unit='GB'))} gradient buffer hierarchically: reduce-scatter "
                            "in the node, all-reduce of each GPU's shard across nodes on its own rail, all-gather in the "
                            "node. How long does it take, in ms?",
                  prompt_zh=f"在 {nodes} 个节点（每节点 8 张 {gpu.name}）上做数据并行，用分层方式对 "
                            f"{fmt_quantity(size, 'bytes', unit='GB')} 的梯度做 AllReduce：节点内 ReduceScatter，每张卡在"
                            "自己的轨道上跨节点对自己的分片做 AllReduce，再在节点内 AllGather。需要多少时间（ms）？"),),
        conventions_en=HIER_CONV_EN, conventions_zh=HIER_CONV_ZH,
        world=World(gpu=gpu),
    )


@template("communication.fat_tree_hosts", topic="communication", title="Hosts of a non-blocking fat tree from the switch radix",
          title_zh="由交换机端口数求无阻塞胖树的主机数", difficulty=2, target_seconds=90, source="alfares2008")
def fat_tree_hosts(rng):
    k, tiers = rng.choice(RADICES), rng.choice((2, 3))
    note_en, note_zh = _radix_note()
    gbps = rng.choice((400, 800))
    planned = rng.choice((4096, 8192, 16384, 24576, 32768, 65536, 100000))
    formula = formulas.get("fat_tree_hosts")
    hosts = formula.evaluate(radix=k, tiers=tiers)
    fits = planned <= hosts
    return Spec(
        givens=(given("radix", "Switch radix k", "交换机端口数 k", k), given("tiers", "Switch tiers", "交换机层数", tiers)),
        asks=(Ask(formula="fat_tree_hosts", inputs={"radix": k, "tiers": tiers}, unit="",
                  takeaway=(f"{hosts:,.0f} hosts: the planned {planned:,} GPUs "
                            + ("fit in it." if fits else f"need {'another tier' if tiers == 2 else 'larger switches'} "
                                                         "(or an oversubscribed fabric).")
                            + " " + formula.takeaway[0].upper() + formula.takeaway[1:]),  # the card's words
                  takeaway_zh=(f"{hosts:,.0f} 台主机：计划的 {planned:,} 张 GPU "
                               + ("放得下。" if fits else f"放不下，需要{'再加一层' if tiers == 2 else '端口更多的交换机'}"
                                                         "（或接受收敛的网络）。")
                               + formula.takeaway_zh),
                  prompt_en=f"An operator plans a cluster of {planned:,} GPUs and gives every GPU its own {gbps} Gb/s "
                            f"NIC, so each GPU is one host of the scale-out fabric. Built as a non-blocking {tiers}-tier "
                            f"fat tree of {k}-port switches {note_en}, how many GPUs can the fabric connect at most?",
                  prompt_zh=f"运营方计划建一个 {planned:,} 张 GPU 的集群，给每张 GPU 配一块自己的 {gbps} Gb/s 网卡，所以每张 "
                            f"GPU 都是横向扩展网络中的一台主机。若用 {k} 口交换机{note_zh}搭成无阻塞的 {tiers} 层胖树，"
                            "这个网络最多能连接多少张 GPU？"),),
        conventions_en=TREE_CONV_EN, conventions_zh=TREE_CONV_ZH,
    )


# Chips a data-parallel run trains on, with the NIC per GPU they ship with (HGX A100: 200 Gb/s HDR per GPU;
# Hopper, MI300X and B200 nodes: 400 Gb/s; B200/B300 with ConnectX-8: 800 Gb/s; range scaleout_nic_per_gpu)
_DP_NICS = {"a100_80": (25e9,), "h100_sxm": (50e9,), "h200": (50e9,), "mi300x": (50e9,), "b200": (50e9, 100e9)}
DP_CONV_EN = ("Pure data parallelism, one NIC per GPU: every step all-reduces the bf16 gradients (2Φ bytes) with a "
              "ring, which sends about twice the message, 2 × 2Φ bytes per GPU. The all-reduce overlaps with the "
              "backward pass, 4Φ FLOPs per token at the dense bf16 peak. Latency ignored. TFLOPS = 10¹² FLOP/s, GB/s = 10⁹ B/s, "
              "1 Gb/s = 1/8 GB/s.")
DP_CONV_ZH = ("纯数据并行，每卡一块网卡：每一步用环形算法对 bf16 梯度（2Φ 字节）做 AllReduce，每卡约发送两倍于消息的数据量，即 "
              "2 × 2Φ 字节。AllReduce 与反向传播重叠，反向每 token 4Φ FLOPs，按 bf16 稠密峰值计。忽略延迟。TFLOPS = 10¹² FLOP/s，"
              "GB/s = 10⁹ B/s，1 Gb/s = 1/8 GB/s。")


@template("parallelism.dp_min_batch", topic="parallelism",
          title="The per-GPU batch that hides data-parallel gradient traffic (derive it)",
          title_zh="能掩盖数据并行梯度通信的每卡批大小（推导）", difficulty=3, target_seconds=180,
          source="austin2025, li2020")
def dp_min_batch(rng):
    gpu = hardware.draw(rng, [hardware.get(k) for k in _DP_NICS], accept=lambda g: g.key in _DP_NICS)
    link = rng.choice(_DP_NICS[gpu.key])
    n = rng.choice((2048, 3072, 4096, 6144, 8192, 10240, 12288, 16384, 20480, 24576, 32768))  # n × B_min > 16M tokens on every chip
    peak = gpu.peak("bf16")
    b_min = peak / link
    gbit = round(link * 8 / 1e9)
    return Spec(
        givens=(given("gpu", "GPU", "GPU", gpu.name),
                given("peak_flops", "Peak dense bf16 FLOP/s", "bf16 稠密峰值算力", peak, "flop_rate", "TFLOPS"),
                given("link_bandwidth", f"NIC per GPU ({gbit} Gb/s), one way", f"每卡网卡单向带宽（{gbit} Gb/s）", link,
                      "bandwidth", "GB/s")),
        asks=(Ask(formula="dp_min_batch_per_device", unit="",
                  inputs={"peak_flops": peak, "link_bandwidth": link, "bytes_per_param": 2},
                  explanation=("compute grows with the tokens per GPU, the gradient traffic does not: the batch per "
                               "GPU at which they take the same time is where data parallelism stops waiting on the "
                               "network",),
                  explanation_zh=("计算量随每卡 token 数增长，梯度通信量却不变：两者耗时相等时的每卡批大小，就是数据并行"
                                  "不再等网络的分界点",),
                  takeaway=(f"over {n:,} GPUs that is a global batch of at least {n * b_min / 1e6:,.0f}M tokens per "
                            "step, well above the 4-16M tokens large runs train with: that is why they add tensor, "
                            "pipeline or expert parallelism (fewer data-parallel replicas) instead of shrinking the "
                            "per-GPU batch."),
                  takeaway_zh=(f"在 {n:,} 张卡上，这意味着每步全局批至少 {n * b_min / 1e6:,.0f}M 个 token，远超大规模训练常用的 "
                               "4-16M token：所以它们加入张量、流水线或专家并行（减少数据并行副本数），而不是缩小每卡的批。"),
                  prompt_en=f"A dense model is trained with pure data parallelism on {n:,} {gpu.name} GPUs, each with "
                            f"its own {gbit} Gb/s NIC. How many tokens must each GPU process per step so that the "
                            "gradient all-reduce can hide behind the backward pass?",
                  prompt_zh=f"一个稠密模型在 {n:,} 张 {gpu.name} 上用纯数据并行训练，每张卡有自己的 {gbit} Gb/s 网卡。"
                            "每张卡每步至少要处理多少个 token，梯度 AllReduce 才能被反向传播掩盖？"),),
        conventions_en=DP_CONV_EN, conventions_zh=DP_CONV_ZH,
        world=World(gpu=gpu, precision="bf16"),
    )
