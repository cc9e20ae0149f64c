"""The network fabric (issue #26): hosts of a fat tree from the switch radix, bisection bandwidth with
oversubscription, and a two-level (hierarchical) all-reduce over NVLink and one NIC rail per GPU."""

from __future__ import annotations

from engine.units import fmt_quantity

from .. import hardware, ranges
from ..base import Ask, Ref, Spec, World, given, template
from .roofline import an

# Radices of real switches in the range switch_radix: NDR QM9700 (64), SN5600 (128 x 400 GbE), Quantum-X800 (144)
RADICES = (64, 128, 144)
NIC_GBS = (50e9, 100e9)  # 400 / 800 Gb/s per host, one direction (range scaleout_nic_per_gpu)

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
    return {"k": k, "link": rng.choice(NIC_GBS), "o": rng.choice((1.5, 2, 3, 4))}


@template("communication.bisection_bandwidth", topic="communication",
          title="Bisection bandwidth of an oversubscribed fabric", title_zh="有收敛的网络的对分带宽",
          difficulty=2, target_seconds=90, source="alfares2008")
def bisection_bandwidth(rng):
    f = _fabric(rng)
    hosts = rng.choice((512, 1024, 2048, 4096, 8192))
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
